/**
 * A show's stream, from the first bytes of a publisher to the replay. The state machine is the
 * one rule every ingest protocol and the studio's Go live / End share.
 */
export const LIVE_STREAM_STATES = ['idle', 'receiving', 'live', 'reconnecting', 'ended'] as const;
export type LiveStreamState = (typeof LIVE_STREAM_STATES)[number];

/** What happens to a stream: a publisher arrives or goes, the host acts, the grace runs out. */
export type LiveStreamEvent = 'publish' | 'publisher-gone' | 'go-live' | 'end' | 'grace-expired';

/** How long a live show waits for its dropped encoder before it ends by itself (LIVE_RECONNECT_GRACE_MS). */
export const LIVE_RECONNECT_GRACE_MS = 60_000;

/* The segment length and the live window are a node's setting: LiveProfile (live-profile.ts). */

export type LiveStreamRefusal = 'no-publisher' | 'already-publishing' | 'ended' | 'not-live';

export type LiveStreamTransition =
  | { ok: true; state: LiveStreamState }
  | { ok: false; reason: LiveStreamRefusal };

/**
 * The next state of a stream, or why the event does not apply:
 *
 * idle ─publish→ receiving ─go-live→ live ─publisher-gone→ reconnecting ─publish→ live
 * receiving ─publisher-gone→ idle (nothing was shown yet; the next publish starts over)
 * live | reconnecting ─end→ ended;  reconnecting ─grace-expired→ ended
 */
export function nextLiveStreamState(state: LiveStreamState, event: LiveStreamEvent): LiveStreamTransition {
  const to = (next: LiveStreamState): LiveStreamTransition => ({ ok: true, state: next });
  const refuse = (reason: LiveStreamRefusal): LiveStreamTransition => ({ ok: false, reason });
  if (state === 'ended') return refuse('ended');
  switch (event) {
    case 'publish':
      if (state === 'idle') return to('receiving');
      if (state === 'reconnecting') return to('live');
      return refuse('already-publishing');
    case 'publisher-gone':
      if (state === 'receiving') return to('idle');
      if (state === 'live') return to('reconnecting');
      return refuse('no-publisher');
    case 'go-live':
      if (state === 'receiving') return to('live');
      if (state === 'live') return to('live');
      return refuse(state === 'idle' ? 'no-publisher' : 'not-live');
    case 'end':
      // Only a show viewers saw ends (and becomes a replay); a preview just stops with its encoder.
      return state === 'live' || state === 'reconnecting' ? to('ended') : refuse('not-live');
    case 'grace-expired':
      return state === 'reconnecting' ? to('ended') : refuse('not-live');
  }
}

/** Whether viewers see the show as live (the event is live for them). */
export function isOnAir(state: LiveStreamState): boolean {
  return state === 'live' || state === 'reconnecting';
}
