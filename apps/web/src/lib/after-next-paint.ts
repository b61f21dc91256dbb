/**
 * Runs `callback` once the browser has painted its next frame: a load event comes before the frame
 * that shows its picture, and a request started after that frame (a picture below the fold, a
 * clip's video) no longer shares a slow line with the page's largest paint.
 */
export function afterNextPaint(callback: () => void): void {
  requestAnimationFrame(() => setTimeout(callback, 0));
}

/** How long a part that waits for a paint waits at most (see `nextPaint`). */
const PAINT_WAIT_BOUND_MS = 1000;

/**
 * Resolves once the browser has shown its next frame, for code that should not share a slow line
 * with the page's largest paint: in the frame after it (the paint's own frame can still be on its
 * way to the screen when `afterNextPaint` calls back). A frame the browser does not paint (a hidden
 * tab, an embed scrolled out of view) holds it back for a second at most.
 */
export function nextPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => afterNextPaint(resolve));
    setTimeout(resolve, PAINT_WAIT_BOUND_MS);
  });
}
