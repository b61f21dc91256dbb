// @vitest-environment happy-dom
import { NEXT_CLIP_COUNTDOWN_SECONDS } from '@vitrine/domain';
import { act } from 'preact/test-utils';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NextClipCountdown } from './video-stage.tsx';

let container: HTMLElement;
let root: Root;
beforeEach(() => {
  vi.useFakeTimers();
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.useRealTimers();
});

/** Moves the fake clock on one second at a time, letting each tick's render run. */
function secondsPass(seconds: number) {
  for (let second = 0; second < seconds; second++) act(() => void vi.advanceTimersByTime(1000));
}

describe('the next clip countdown (clip mode)', () => {
  it('starts the next clip after NEXT_CLIP_COUNTDOWN_SECONDS whole seconds, not before', () => {
    const onNext = vi.fn();
    act(() => root.render(<NextClipCountdown next={{ eventName: 'Next', clipMode: 'clip', onNext }} />));
    expect(container.querySelector('[role="timer"]')).not.toBeNull();
    secondsPass(NEXT_CLIP_COUNTDOWN_SECONDS - 1);
    expect(onNext).not.toHaveBeenCalled();
    secondsPass(1);
    expect(onNext).toHaveBeenCalledTimes(1);
  });

  it('stays on this clip when the viewer says so', () => {
    const onNext = vi.fn();
    act(() => root.render(<NextClipCountdown next={{ eventName: 'Next', clipMode: 'clip', onNext }} />));
    const stay = container.querySelector<HTMLButtonElement>('button.link-button');
    act(() => stay?.click());
    secondsPass(NEXT_CLIP_COUNTDOWN_SECONDS + 2);
    expect(onNext).not.toHaveBeenCalled();
    expect(container.querySelector('[role="timer"]')).toBeNull();
  });
});
