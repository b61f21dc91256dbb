import { type RefObject, useEffect, useState } from 'react';

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (callback: (now: number, metadata: { mediaTime: number }) => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

/**
 * Follows the video's playback position and reports `derive(currentTime)` whenever the derived
 * value changes (`same` tells; by default the same value). Uses requestVideoFrameCallback (one call
 * per presented frame) where available, else animation frames; React re-renders only when the
 * derived value changes, not every frame.
 */
export function useVideoDerived<T>(
  videoRef: RefObject<HTMLVideoElement | null>,
  derive: (currentTimeSec: number) => T,
  initial: T,
  same: (previous: T, next: T) => boolean = Object.is,
): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    const video = videoRef.current as FrameCallbackVideo | null;
    if (!video) return;
    let handle = 0;
    let stopped = false;
    const update = (time: number) =>
      setValue((previous) => {
        const next = derive(time);
        return same(previous, next) ? previous : next;
      });
    const onFrame = (_now: number, metadata: { mediaTime: number }) => {
      if (stopped) return;
      update(metadata.mediaTime);
      handle = video.requestVideoFrameCallback?.(onFrame) ?? 0;
    };
    const onAnimationFrame = () => {
      if (stopped) return;
      update(video.currentTime);
      handle = requestAnimationFrame(onAnimationFrame);
    };
    // Seeks and pauses produce no new frames; read the position directly then.
    const onDiscreteChange = () => update(video.currentTime);
    video.addEventListener('seeked', onDiscreteChange);
    video.addEventListener('loadedmetadata', onDiscreteChange);
    video.addEventListener('timeupdate', onDiscreteChange);
    if (video.requestVideoFrameCallback) handle = video.requestVideoFrameCallback(onFrame);
    else handle = requestAnimationFrame(onAnimationFrame);
    update(video.currentTime);
    return () => {
      stopped = true;
      if (video.cancelVideoFrameCallback) video.cancelVideoFrameCallback(handle);
      else cancelAnimationFrame(handle);
      video.removeEventListener('seeked', onDiscreteChange);
      video.removeEventListener('loadedmetadata', onDiscreteChange);
      video.removeEventListener('timeupdate', onDiscreteChange);
    };
  }, [videoRef, derive, same]);
  return value;
}
