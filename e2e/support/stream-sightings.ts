import type { Page } from 'playwright-core';
import { waitFor } from '../../apps/server/src/test-support/live-publisher.ts';

/**
 * When something first showed (or went) in a live player's page, for tests of what appears on the
 * stream's clock (competitions, flash deals): the wall clock, the delay the player reported then
 * (its stage's `data-live-delay-ms`) and, where the element sits in a banner stamped with the frame
 * it changed on, that frame's program date time (`data-stream-ms`; NaN elsewhere).
 */
export interface Sighting {
  at: number;
  delayMs: number;
  streamMs: number;
}

/** How long a sighting or a steady delay is waited for: a busy machine's bound, not a deadline. */
const SIGHTING_BOUND_MS = 40_000;

/**
 * Records, from now on, when `selector` first matches in the page (checked on every DOM change),
 * or with `gone`, when it first no longer does. Read it with `sighting(page, name)`.
 */
export async function watchFor(page: Page, name: string, selector: string, gone = false): Promise<void> {
  await page.evaluate(
    ({ name, selector, gone }) => {
      const holder = window as unknown as { sightings?: Record<string, Sighting> };
      holder.sightings ??= {};
      const sightings = holder.sightings;
      const stage = document.querySelector('.video-stage') as HTMLElement;
      const check = () => {
        const found = document.querySelector(selector);
        if (sightings[name] || Boolean(found) === gone) return;
        const banner = found?.closest('[data-stream-ms]') as HTMLElement | null | undefined;
        sightings[name] = {
          at: Date.now(),
          delayMs: Number(stage.dataset.liveDelayMs),
          streamMs: Number(banner?.dataset.streamMs),
        };
        observer.disconnect();
      };
      const observer = new MutationObserver(check);
      observer.observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      check();
    },
    { name, selector, gone },
  );
}

/** The sighting `watchFor` recorded under `name`, once there is one. */
export async function sighting(page: Page, name: string, timeout = SIGHTING_BOUND_MS): Promise<Sighting> {
  await page.waitForFunction(
    (name) => Boolean((window as unknown as { sightings?: Record<string, unknown> }).sightings?.[name]),
    name,
    { timeout },
  );
  return page.evaluate(
    (name) => (window as unknown as { sightings: Record<string, Sighting> }).sightings[name] as Sighting,
    name,
  );
}

/**
 * The player's delay once it holds steady (two samples a second apart within 50 ms): right after
 * joining, the player catches up with the live edge and the once-a-second sample lags the truth,
 * which would blur a measurement against it.
 */
export async function steadyDelay(page: Page): Promise<number> {
  let previous = Number.NaN;
  return waitFor(
    'a steady viewer delay',
    async () => {
      await page.waitForTimeout(1000);
      const current = Number(await page.getAttribute('.video-stage', 'data-live-delay-ms'));
      const steady = Math.abs(current - previous) < 50;
      previous = current;
      return steady ? current : null;
    },
    SIGHTING_BOUND_MS,
  );
}
