// @vitest-environment happy-dom
import { NEXT_CLIP_COUNTDOWN_SECONDS } from '@vitrine/domain';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mountEachTest } from '../../test-support/mount-each-test.ts';
import { NextClipCountdown } from './video-stage.tsx';

// Registered before the root's set-up, so the root mounts on the fake clock and unmounts before
// the real one is back (after-each hooks run in reverse order).
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});
const mounted = mountEachTest();

/** Moves the fake clock on one second at a time, letting each tick's render run. */
function secondsPass(seconds: number) {
  for (let second = 0; second < seconds; second++) act(() => void vi.advanceTimersByTime(1000));
}

describe('the next clip countdown (clip mode)', () => {
  it('starts the next clip after NEXT_CLIP_COUNTDOWN_SECONDS whole seconds, not before', () => {
    const onNext = vi.fn();
    act(() =>
      mounted.root.render(<NextClipCountdown next={{ eventName: 'Next', clipMode: 'clip', onNext }} />),
    );
    expect(mounted.container.querySelector('[role="timer"]')).not.toBeNull();
    secondsPass(NEXT_CLIP_COUNTDOWN_SECONDS - 1);
    expect(onNext).not.toHaveBeenCalled();
    secondsPass(1);
    expect(onNext).toHaveBeenCalledTimes(1);
  });

  it('stays on this clip when the viewer says so', () => {
    const onNext = vi.fn();
    act(() =>
      mounted.root.render(<NextClipCountdown next={{ eventName: 'Next', clipMode: 'clip', onNext }} />),
    );
    const stay = mounted.container.querySelector<HTMLButtonElement>('button.link-button');
    act(() => stay?.click());
    secondsPass(NEXT_CLIP_COUNTDOWN_SECONDS + 2);
    expect(onNext).not.toHaveBeenCalled();
    expect(mounted.container.querySelector('[role="timer"]')).toBeNull();
  });
});
