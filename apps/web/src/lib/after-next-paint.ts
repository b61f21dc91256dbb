/**
 * Runs `callback` once the browser has painted its next frame: a load event comes before the frame
 * that shows its picture, and a request started after that frame (a picture below the fold, a
 * clip's video) no longer shares a slow line with the page's largest paint.
 */
export function afterNextPaint(callback: () => void): void {
  requestAnimationFrame(() => setTimeout(callback, 0));
}
