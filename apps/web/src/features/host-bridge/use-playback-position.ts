import { type RefObject, useEffect } from 'react';
import { currentEmbedParams } from './embed-params.ts';
import type { HostBridgeView } from './host-bridge-context.tsx';

/**
 * The minimized player that survives a host page navigation (issue 7): the player tells the
 * SDK where it is (playback_position), the SDK keeps that in the host tab's sessionStorage and,
 * on the host's next page, opens the same show with resumeEvent / resumeAt / autoplay, which
 * this hook applies once.
 */

/** How often a playing video reports its position; the SDK adds the time since the last report. */
export const PLAYBACK_REPORT_INTERVAL_MS = 2_000;

/** The resume point of this page load is applied once, to the first player of its show. */
let resumeApplied = false;

export function usePlaybackPosition(
  videoRef: RefObject<HTMLVideoElement | null>,
  host: Pick<HostBridgeView, 'embedded' | 'connected' | 'send'>,
  show: { campaignUid: string | null; eventUid: string; live: boolean },
): void {
  const { embedded, connected, send } = host;
  const { campaignUid, eventUid, live } = show;

  useEffect(() => {
    const video = videoRef.current;
    const resume = embedded ? currentEmbedParams()?.resume : null;
    if (!video || !resume || resumeApplied || resume.eventUid !== eventUid) return;
    const apply = () => {
      if (resumeApplied) return;
      resumeApplied = true;
      // A live show goes on from the live position (see VideoStage); a recording from where it was.
      if (!live) {
        const end = Number.isFinite(video.duration)
          ? Math.max(0, video.duration - 1)
          : Number.POSITIVE_INFINITY;
        video.currentTime = Math.min(resume.time, end);
      }
      if (resume.autoplay) {
        // It was playing on the previous page; browsers may refuse sound without a click there.
        video.play().catch(() => {
          video.muted = true;
          return video.play().catch(() => undefined);
        });
      }
    };
    if (video.readyState >= HTMLMediaElement.HAVE_METADATA) apply();
    else video.addEventListener('loadedmetadata', apply);
    return () => video.removeEventListener('loadedmetadata', apply);
  }, [videoRef, embedded, eventUid, live]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !connected) return;
    let lastReport = Number.NEGATIVE_INFINITY;
    const report = () => {
      lastReport = performance.now();
      send('playback_position', {
        campaignUid,
        eventUid,
        time: Math.max(0, video.currentTime),
        playing: !video.paused && !video.ended,
      });
    };
    const onTimeUpdate = () => {
      if (performance.now() - lastReport >= PLAYBACK_REPORT_INTERVAL_MS) report();
    };
    const events = ['play', 'pause', 'seeked', 'ended'] as const;
    video.addEventListener('timeupdate', onTimeUpdate);
    for (const name of events) video.addEventListener(name, report);
    return () => {
      video.removeEventListener('timeupdate', onTimeUpdate);
      for (const name of events) video.removeEventListener(name, report);
    };
  }, [videoRef, connected, send, campaignUid, eventUid]);
}
