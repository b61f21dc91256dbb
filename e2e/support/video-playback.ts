import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';

/**
 * Resolves once the page's video has played `seconds` more than it had when called, by its played
 * ranges rather than its position: a live player's first jump to the live edge moves the position
 * seconds ahead before a frame has played (a viewer "playing 1.5 s" was still waiting for her first
 * segment, so her pause offered no way back to live, which a video that never played does not).
 */
export async function playsOn(page: Page, seconds: number, timeout = 45_000): Promise<void> {
  await page.waitForFunction(
    ({ seconds, mark }) => {
      const video = document.querySelector('video') as HTMLVideoElement;
      let played = 0;
      for (let range = 0; range < video.played.length; range++)
        played += video.played.end(range) - video.played.start(range);
      // What it had played at the first check, which is made as the call starts.
      const holder = window as { playsOnMarks?: Record<string, number> };
      const marks = holder.playsOnMarks ?? {};
      holder.playsOnMarks = marks;
      marks[mark] ??= played;
      return !video.paused && played >= marks[mark] + seconds;
    },
    { seconds, mark: randomUUID() },
    { timeout },
  );
}

/**
 * Plays the page's first video, muted (a page may start sound only after a gesture); resolves once
 * its playback has started.
 */
export async function playMuted(page: Page): Promise<void> {
  await page
    .locator('video')
    .first()
    .evaluate(async (video: HTMLVideoElement) => {
      video.muted = true;
      await video.play();
    });
}

/**
 * Plays the page's video, muted, from `secondsBeforeEnd` before its end (once its length is
 * known), so that a test sees what the player does when a show's recording ends.
 */
export async function playNearEnd(page: Page, secondsBeforeEnd: number): Promise<void> {
  await page.evaluate(async (before) => {
    const video = document.querySelector('video') as HTMLVideoElement;
    video.muted = true;
    if (video.readyState < HTMLMediaElement.HAVE_METADATA)
      await new Promise((resolve) => video.addEventListener('loadedmetadata', resolve, { once: true }));
    video.currentTime = video.duration - before;
    await video.play();
  }, secondsBeforeEnd);
}

/** Resolves once the page's (first) video plays past its first second. */
export async function playsPastOneSecond(page: Page, timeout: number): Promise<void> {
  await page.waitForFunction(
    () => {
      const video = document.querySelector('video');
      return Boolean(video && !video.paused && video.currentTime > 1);
    },
    undefined,
    { timeout },
  );
}
