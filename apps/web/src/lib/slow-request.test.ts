import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { awaitPatiently, RequestTimedOut } from './slow-request.ts';

describe('awaitPatiently', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('answers as the request does, and says nothing when it is quick', async () => {
    const onSlow = vi.fn();
    const answer = awaitPatiently(Promise.resolve('signed in'), { slowMs: 100, timeoutMs: 1000, onSlow });
    await expect(answer).resolves.toBe('signed in');
    await vi.advanceTimersByTimeAsync(2000);
    expect(onSlow).not.toHaveBeenCalled();
  });

  it('passes the server’s refusal on unchanged', async () => {
    const refusal = new Error('Wrong e-mail address or password.');
    await expect(
      awaitPatiently(Promise.reject(refusal), { slowMs: 100, timeoutMs: 1000, onSlow: () => {} }),
    ).rejects.toBe(refusal);
  });

  it('tells the person it is still working, then gives up with an error she can retry', async () => {
    const onSlow = vi.fn();
    const never = new Promise<string>(() => {});
    const answer = awaitPatiently(never, { slowMs: 100, timeoutMs: 1000, onSlow });
    const settled = answer.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(150);
    expect(onSlow).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(900);
    expect(await settled).toBeInstanceOf(RequestTimedOut);
  });
});
