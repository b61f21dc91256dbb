import type { Locator, Page } from 'playwright-core';
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
  /**
   * How much video (ms) lies between the frame presented with the change and the frame before it:
   * one frame's time while the video plays on, more where it skipped (a catch-up jump, a stall the
   * player recovers from by jumping ahead), which no banner can fall inside. NaN without a video.
   */
  frameGapMs: number;
  /** The media time (s) of the frame presented with the change, what the viewer saw it on; NaN without one. */
  frameSec: number;
}

/** The test stream's frame time (publishTestStream's 25 frames a second), ms. */
export const TEST_STREAM_FRAME_MS = 40;

/** Where a change fell on the frames a viewer saw, against the frame it was stamped for. */
export interface FrameError {
  /** The program date time of the frame the change showed on, minus the stamped one (below 0: early). */
  frameErrorMs: number;
  /** Video she never saw just before that frame (beyond one frame's time): a skip the stamp may fall in. */
  skippedMs: number;
}

/**
 * How far past its stamp (`stampMs`, a program date time) a change that `seen` caught showed,
 * given the program date time of the frame it showed on (`streamMs`).
 */
export function frameErrorOf(seen: Sighting, streamMs: number, stampMs: number): FrameError {
  return {
    frameErrorMs: streamMs - stampMs,
    skippedMs: Math.max(0, Math.round((seen.frameGapMs || 0) - TEST_STREAM_FRAME_MS)),
  };
}

/**
 * How late on her frames a change showed: it must come on the first frame shown at or after the
 * stamp. Where her video skipped ahead across the stamp (a stall the player recovered from by
 * jumping), that is the first frame after the skip, however far past the stamp it lies: what lies
 * in the skip counts for nothing. So a change on that frame is as late as one on the next frame of
 * smooth video: zero. (CI once saw a viewer jump 2.2 s across a flash deal's end and change on
 * the frame 5 ms past it; without the floor that read as 2.2 s early.)
 */
export const lateOnFrames = ({ frameErrorMs, skippedMs }: FrameError): number =>
  Math.max(0, frameErrorMs - skippedMs);

/** How long a sighting or a steady delay is waited for: a busy machine's bound, not a deadline. */
const SIGHTING_BOUND_MS = 40_000;

/**
 * Records, from now on, when `selector` first matches in the page (checked on every DOM change),
 * or with `gone`, when it first no longer does. Read it with `sighting(page, name)`.
 */
export async function watchFor(page: Page, name: string, selector: string, gone = false): Promise<void> {
  await page.evaluate(
    ({ name, selector, gone }) => {
      type Pending = Omit<Sighting, 'frameGapMs' | 'frameSec'> & { frameGapMs?: number; frameSec?: number };
      const holder = window as unknown as { sightings?: Record<string, Pending> };
      holder.sightings ??= {};
      const sightings = holder.sightings;
      // A page without a player (a chat alone) has no delay to report: NaN.
      const stage = document.querySelector('.video-stage') as HTMLElement | null;
      const video = document.querySelector('video');
      // The frames the video presents, to measure the gap the change falls in: video frame
      // callbacks run just before the paint that shows their frame, so the first one after the
      // change is the frame shown with it, and the one before it the last frame shown without it.
      let lastFrameSec = Number.NaN;
      const onFrame = (_now: number, metadata: { mediaTime: number }) => {
        const seen = sightings[name];
        if (seen) {
          seen.frameSec = metadata.mediaTime;
          seen.frameGapMs = (metadata.mediaTime - lastFrameSec) * 1000;
          return;
        }
        lastFrameSec = metadata.mediaTime;
        video?.requestVideoFrameCallback(onFrame);
      };
      video?.requestVideoFrameCallback(onFrame);
      const check = () => {
        const found = document.querySelector(selector);
        if (sightings[name] || Boolean(found) === gone) return;
        const banner = found?.closest('[data-stream-ms]') as HTMLElement | null | undefined;
        const seen: Pending = {
          at: Date.now(),
          delayMs: Number(stage?.dataset.liveDelayMs),
          streamMs: Number(banner?.dataset.streamMs),
        };
        sightings[name] = seen;
        // Without a video, or one that presents no frame soon (paused, or replaced by the player),
        // there is no gap to tell.
        const noFrame = () => {
          seen.frameSec ??= Number.NaN;
          seen.frameGapMs ??= Number.NaN;
        };
        if (!video || video.paused) noFrame();
        else setTimeout(noFrame, 2000);
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

/** The sighting `watchFor` recorded under `name`, once there is one (and the frame shown with it). */
export async function sighting(page: Page, name: string, timeout = SIGHTING_BOUND_MS): Promise<Sighting> {
  await page.waitForFunction(
    (name) =>
      (window as unknown as { sightings?: Record<string, { frameGapMs?: number }> }).sightings?.[name]
        ?.frameGapMs !== undefined,
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

/**
 * How long from a person's click on `button` in `actor`'s page to `selector` leaving `viewer`'s
 * page (a moderator hiding a comment, say), in milliseconds (`ms`). The click's moment is the input event's own
 * time in the actor's page, not the test's before it asks Playwright to click: Playwright's checks
 * and round trips before the click reaches the page are no part of what the person waits for, and
 * on a busy machine they took hundreds of milliseconds (a hide measured 1,355 ms that way).
 * When the viewer's page records its socket messages (recordSocketArrivals) and `message` names a
 * text of the change (the comment's uid, say), `messageMs` is when that change's message reached
 * the page: the rest of `ms` is the page's own work, so a slow measurement says which side was slow.
 */
export async function clickToRemoval(
  actor: Page,
  button: Locator,
  viewer: Page,
  selector: string,
  message?: string,
): Promise<{ ms: number; messageMs: number | null }> {
  const name = `removal of ${selector}`;
  // There first: a watch for its going would otherwise see it gone before it came.
  await viewer.locator(selector).waitFor({ timeout: SIGHTING_BOUND_MS });
  await watchFor(viewer, name, selector, true);
  await actor.evaluate(() => {
    // This click's moment only: an earlier measurement's must not be read as it.
    delete (window as unknown as { clickedAt?: number }).clickedAt;
    document.addEventListener(
      'click',
      (event) => {
        // The wall clock when the browser made the event, comparable with the viewer page's Date.now().
        (window as unknown as { clickedAt?: number }).clickedAt =
          Date.now() - (performance.now() - event.timeStamp);
      },
      { capture: true, once: true },
    );
  });
  await button.click();
  const clickedAt = await actor.waitForFunction(
    () => (window as unknown as { clickedAt?: number }).clickedAt,
  );
  const removed = await sighting(viewer, name);
  const clicked = Number(await clickedAt.jsonValue());
  const arrived =
    message === undefined
      ? null
      : await viewer.evaluate(
          ({ since, message }) =>
            (window as unknown as { socketArrivals?: SocketArrival[] }).socketArrivals?.find(
              (arrival) => arrival.at >= since && arrival.text.includes(message),
            )?.at ?? null,
          { since: clicked, message },
        );
  return {
    ms: Math.round(removed.at - clicked),
    messageMs: arrived === null ? null : Math.round(arrived - clicked),
  };
}

/** A text message the page's WebSocket delivered, and when the page's own code first had it. */
interface SocketArrival {
  at: number;
  text: string;
}

/**
 * Records, from the page's next navigation on, every text message its WebSockets deliver, with
 * the page's clock when its code first had it (a listener added before the app's own). Read in
 * the page, not from Playwright's `framereceived` in the test: that event comes over the
 * browser's protocol connection, whose round trips took hundreds of milliseconds on a busy
 * machine (see clickToRemoval), and the question asked of it is whether a message came late.
 */
export async function recordSocketArrivals(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const arrivals: SocketArrival[] = [];
    (window as unknown as { socketArrivals: typeof arrivals }).socketArrivals = arrivals;
    const NativeWebSocket = window.WebSocket;
    window.WebSocket = class extends NativeWebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        this.addEventListener('message', (event) => {
          if (typeof event.data === 'string') arrivals.push({ at: Date.now(), text: event.data });
        });
      }
    };
  });
}

/**
 * When the page (recorded by `recordSocketArrivals`) first had a message at or after `since` whose
 * text holds `fragment`; waits for one.
 */
export async function arrivalAfter(page: Page, since: number, fragment: string): Promise<number> {
  const arrival = await page.waitForFunction(
    ({ since, fragment }) =>
      (window as unknown as { socketArrivals: SocketArrival[] }).socketArrivals.find(
        (message) => message.at >= since && message.text.includes(fragment),
      )?.at,
    { since, fragment },
    { timeout: SIGHTING_BOUND_MS },
  );
  return Number(await arrival.jsonValue());
}

/** How far off its moment something showed in a live player, and how early its message came. */
export interface StreamClockError {
  /** Shown against the later of its moment in her video and its message's arrival: what tests bound. */
  errorMs: number;
  /** Shown against its moment in her video alone. */
  onStreamClockErrorMs: number;
  /** How long before that moment its message reached her page (negative: after it). */
  arrivedBeforeDueMs: number;
}

/**
 * How far off its moment a cue, presentation or competition showed (`shownAt`) in a page recorded
 * by `recordSocketArrivals`. Its moment is `dueAt`, when her video reached the stamp; but a message
 * that comes after that (a busy machine's socket) can only show on arrival, so the error is taken
 * against the later of the two: the first message at or after `stampedAt` that names `uid`.
 */
export async function streamClockError(
  page: Page,
  { uid, stampedAt, dueAt, shownAt }: { uid: string; stampedAt: number; dueAt: number; shownAt: number },
): Promise<StreamClockError> {
  const arrivedAt = await arrivalAfter(page, stampedAt, `"${uid}"`);
  return {
    errorMs: shownAt - Math.max(dueAt, arrivedAt),
    onStreamClockErrorMs: shownAt - dueAt,
    arrivedBeforeDueMs: dueAt - arrivedAt,
  };
}
