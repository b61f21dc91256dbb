import type { Page } from 'playwright-core';
import { STAMP_WIDTH } from '../../apps/server/src/test-support/clock-stamp.ts';

/**
 * Reads the clock burnt into the frame on screen (clock-stamp.ts: 24 blocks of 12×16 pixels, one
 * bit each, least significant first) and answers now minus that moment, in the page; also the
 * player's own figure by PDT (`data-live-delay-ms`: now − playingDate).
 */
const SAMPLE_SCRIPT = `((stampBase) => {
  const video = document.querySelector('video');
  const stage = document.querySelector('.video-stage');
  const pdt = stage && stage.getAttribute('data-live-delay-ms');
  if (!video || !video.videoWidth) return null;
  const canvas = document.createElement('canvas');
  canvas.width = ${STAMP_WIDTH};
  canvas.height = 16;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  context.drawImage(video, 0, 0, ${STAMP_WIDTH}, 16, 0, 0, ${STAMP_WIDTH}, 16);
  const now = Date.now();
  const row = context.getImageData(0, 8, ${STAMP_WIDTH}, 1).data;
  let stamp = 0;
  for (let bit = 0; bit < 24; bit += 1) if (row[(bit * 12 + 6) * 4] > 128) stamp += 2 ** bit;
  const buffered = video.buffered.length ? video.buffered.end(video.buffered.length - 1) : video.currentTime;
  return {
    honestMs: now - (stampBase + stamp),
    pdtMs: pdt === null ? null : Number(pdt),
    bufferAheadMs: Math.round((buffered - video.currentTime) * 1000),
    playbackRate: video.playbackRate,
  };
})`;

export async function sampleFrameClock(page: Page, stampBase: number) {
  return (await page.evaluate(`${SAMPLE_SCRIPT}(${stampBase})`)) as {
    honestMs: number;
    pdtMs: number | null;
    bufferAheadMs: number;
    /** Above 1 while the player catches up with the edge. */
    playbackRate: number;
  } | null;
}
