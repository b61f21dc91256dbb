/**
 * Runs `callback` once the browser has painted its next frame: a load event comes before the frame
 * that shows its picture, and a request started after that frame (a picture below the fold, a
 * clip's video) no longer shares a slow line with the page's largest paint.
 */
export function afterNextPaint(callback: () => void): void {
  requestAnimationFrame(() => setTimeout(callback, 0));
}

/** How long a part that waits for the first paint waits at most (see `afterFirstPaint`). */
const PAINT_WAIT_BOUND_MS = 1000;

/**
 * Resolves once the page's first contentful paint is on screen (at once when that was long ago,
 * after a navigation inside the app), for code that should not share a slow line with the
 * page's first view. Paint Timing reports the paint once the frame has been presented, so what
 * starts then starts after it. A page the browser does not paint (a hidden tab, an embed scrolled
 * out of view) waits a second at most.
 */
export function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
      setTimeout(resolve, PAINT_WAIT_BOUND_MS);
      afterNextPaint(resolve);
      return;
    }
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) settle();
    });
    // Whichever comes first, the paint or the bound, ends the wait and the observer with it.
    const settle = () => {
      clearTimeout(bound);
      observer.disconnect();
      resolve();
    };
    const bound = setTimeout(settle, PAINT_WAIT_BOUND_MS);
    observer.observe({ type: 'paint', buffered: true });
  });
}
