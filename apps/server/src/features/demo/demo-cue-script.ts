import type { Cue } from '@vitrine/protocol';

/**
 * The source of the cues the demo's live show scripts on each loop of its video. Not the control
 * center's: when the host presents a product from the studio or the admin API (control-center
 * cues), the spec counts only those for that product (spec §4 "Product timing"), so the host takes
 * it over from the script.
 */
export const DEMO_SCRIPT_CUE_SOURCE = 'demo-script';

/** How many loops of scripted cues a product keeps: an hour of the demo video, the replay's chapters. */
export const DEMO_SCRIPT_KEEP_LOOPS = 60;

/** Where in one loop of the demo video a product is shown (ms from the loop's start). */
export interface ScriptedAppearance {
  productUid: string;
  startMs: number;
  endMs: number;
}

/** The loop the stream clock is in at `atMs`, counted from the loop that starts at `anchorMs` (0 before it). */
export function loopAt(anchorMs: number, loopMs: number, atMs: number): number {
  return Math.max(0, Math.floor((atMs - anchorMs) / loopMs));
}

/**
 * A product's scripted cues once the loop starting at `anchorMs` is known: the script's earlier
 * cues from before the anchor (an encoder that restarted began a new timeline; what was shown
 * before stays in the replay), then one cue per loop from 0 to `throughLoop`, stamped on the
 * stream clock; the last `keep` only.
 */
export function scriptedCues(
  previous: readonly Cue[],
  appearance: ScriptedAppearance,
  anchorMs: number,
  loopMs: number,
  throughLoop: number,
  keep = DEMO_SCRIPT_KEEP_LOOPS,
): Cue[] {
  const history = previous.filter(
    (cue) => cue.source === DEMO_SCRIPT_CUE_SOURCE && cue.presentationStartTimestamp < anchorMs,
  );
  const loops: Cue[] = [];
  for (let loop = Math.max(0, throughLoop - keep + 1); loop <= throughLoop; loop++) {
    const loopStart = anchorMs + loop * loopMs;
    loops.push({
      source: DEMO_SCRIPT_CUE_SOURCE,
      presentationStartTimestamp: loopStart + appearance.startMs,
      presentationEndTimestamp: loopStart + appearance.endMs,
      deleted: false,
    });
  }
  return [...history, ...loops].slice(-keep);
}

/**
 * The cues a scripted product keeps besides the script's: everything but cues that ended before
 * the stream went live — the MP4's seeded cues, which no viewer of the stream can reach and whose
 * control-center source would silence the script.
 */
export function cuesKeptBesideScript(cues: readonly Cue[], liveStartTime: number): Cue[] {
  return cues.filter(
    (cue) =>
      cue.source !== DEMO_SCRIPT_CUE_SOURCE &&
      (cue.presentationEndTimestamp === null || cue.presentationEndTimestamp > liveStartTime),
  );
}

/**
 * The encoder's keyframes in the video's first seconds: 0, 3, then every second from 5 on. The
 * first two key-frame intervals (3 s, 2 s) differ from each other and from the rest (1 s), so the
 * length of the stream's first segment tells where in the video it begins, whichever keyframe
 * the ingest started the packager on.
 */
export const DEMO_LEAD_KEYFRAMES_EXPRESSION =
  'expr:if(eq(n,0),1,if(lt(t+0.001,3),0,if(lt(t+0.001,5),lt(prev_forced_t,2.5),gte(t+0.001,prev_forced_t+1))))';

/**
 * Where in the video (ms) the stream's first segment begins, from its length (s): 3 s → second
 * 0, 2 s → second 3; null when it began later (a one-second segment: somewhere from second 5).
 */
export function firstSegmentVideoOffsetMs(durationSec: number): number | null {
  if (Math.abs(durationSec - 3) < 0.5) return 0;
  if (Math.abs(durationSec - 2) < 0.5) return 3000;
  return null;
}
