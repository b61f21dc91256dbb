/** A video element with the per-frame callbacks browsers have (optional: not every one does). */
type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (callback: () => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

/**
 * Calls `update` whenever what the viewer sees may have moved: on every frame the video presents
 * (where the browser has requestVideoFrameCallback), after a seek (a replay's moment moves before
 * a new frame comes), and every `everyMs` in any case (a planned show or a paused video presents
 * no frames). Things timed on the stream clock (competitions, flash deals) follow the frame on
 * screen this way. Returns the function that stops it.
 */
export function followVideoFrames(
  video: HTMLVideoElement | null,
  update: () => void,
  everyMs: number,
): () => void {
  const timer = window.setInterval(update, everyMs);
  const framed = video as FrameCallbackVideo | null;
  let frame = 0;
  let stopped = false;
  const onFrame = () => {
    if (stopped || !framed?.requestVideoFrameCallback) return;
    update();
    frame = framed.requestVideoFrameCallback(onFrame);
  };
  if (framed?.requestVideoFrameCallback) frame = framed.requestVideoFrameCallback(onFrame);
  video?.addEventListener('seeked', update);
  return () => {
    stopped = true;
    window.clearInterval(timer);
    framed?.cancelVideoFrameCallback?.(frame);
    video?.removeEventListener('seeked', update);
  };
}
