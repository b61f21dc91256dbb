import {
  competitionAsReached,
  liveDelayMs,
  noticeVideoDelayMs,
  stampReached,
  type ViewerMoment,
} from '@vitrine/domain';
import type { CompetitionPresentation, LiveEvent } from '@vitrine/protocol';
import { type RefObject, useCallback, useEffect, useState } from 'react';
import { followVideoFrames } from '../../lib/follow-video-frames.ts';
import { playingDateOf } from '../../lib/live-clock.ts';

/** How often the competitions are checked when no video frame comes (a planned show, a paused video). */
const CHECK_EVERY_MS = 250;

/**
 * Where this viewer is, for the stamps of competitions (issue 15 §9): on a live stream with
 * program date times the frame on screen's wall time; on a replay the video's position; otherwise
 * (an external provider's live stream, a show not started) the clock, with the spec's delays.
 */
export function viewerMoment(video: HTMLVideoElement | null, event: LiveEvent): ViewerMoment {
  const status = event.event.currentStatus;
  if (status === 'live') {
    const playingDate = playingDateOf(video);
    if (playingDate !== null) return { clock: 'stream', playingDateMs: playingDate };
  } else if (status === 'vod' && video) {
    return { clock: 'video', seconds: video.currentTime };
  }
  return { clock: 'wall', nowMs: Date.now() };
}

/**
 * The video delay a winner notice waits for (spec §4: video delay + 5 s): what this viewer of a
 * live stream measurably has behind the server's clock now, else the event's broadcast and CDN delays.
 */
export function noticeDelayMs(video: HTMLVideoElement | null, event: LiveEvent): number {
  const playingDate = event.event.currentStatus === 'live' ? playingDateOf(video) : null;
  const measured =
    playingDate === null || !video || video.paused ? null : liveDelayMs(playingDate, Date.now());
  return noticeVideoDelayMs(measured, event);
}

/** What a viewer sees of a competition: a change of it re-renders, anything else does not. */
function visibleKey(competitions: readonly CompetitionPresentation[]): string {
  return competitions
    .map((c) => `${c.uid}:${Number(c.openForParticipation)}${Number(c.playing)}:${c.winners.length}`)
    .join(' ');
}

/**
 * The competitions as this viewer should see them now: each change (opened, closed, presented,
 * drawn) once their video reaches the moment the server stamped it, checked on every frame the
 * video presents (and a few times a second without frames). Re-renders only when what is shown changes.
 */
export function useCompetitionsAsReached(
  videoRef: RefObject<HTMLVideoElement | null>,
  event: LiveEvent,
  competitions: readonly CompetitionPresentation[],
): readonly CompetitionPresentation[] {
  const compute = useCallback(() => {
    const moment = viewerMoment(videoRef.current, event);
    const reached = (stampMs: number) => stampReached(stampMs, event, moment);
    const now = Date.now();
    const list = competitions.map((competition) => competitionAsReached(competition, reached, now));
    return { source: competitions, key: visibleKey(list), list };
  }, [videoRef, event, competitions]);
  const [shown, setShown] = useState(compute);

  useEffect(() => {
    const update = () =>
      setShown((previous) => {
        const next = compute();
        return next.source === previous.source && next.key === previous.key ? previous : next;
      });
    update();
    // A show without competitions has nothing to follow: no timer, no frame callbacks.
    if (competitions.length === 0) return;
    return followVideoFrames(videoRef.current, update, CHECK_EVERY_MS);
  }, [compute, videoRef, competitions.length]);
  return shown.list;
}
