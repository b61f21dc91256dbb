import { PING_TIMEOUT_MS } from '@vitrine/domain';
import type { PingResponse } from '@vitrine/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The server is out of the picture here: what is tested is how long the player waits for it.
const callAsViewer = vi.fn<(name: string, input: unknown) => Promise<PingResponse>>();
vi.mock('../../lib/session.ts', () => ({
  callAsViewer: (name: string, input: unknown) => callAsViewer(name, input),
}));

const { ping } = await import('./cart-api.ts');

const request = {
  action: 'setLastSeenOnCheckout',
  pageUid: 'p',
  campaignUid: 'c',
  checkoutUid: 'k',
} as const;

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  callAsViewer.mockReset();
});

describe('ping (spec §7 /functions/ping, §9 timeout 10 s)', () => {
  it('sends setLastSeenOnCheckout with the checkout and answers what the server answers', async () => {
    const answer: PingResponse = { reservedUntil: 1_700_000_000_000 };
    callAsViewer.mockResolvedValue(answer);
    await expect(ping(request)).resolves.toBe(answer);
    expect(callAsViewer).toHaveBeenCalledWith('ping', request);
  });

  it('gives up after 10 s without an answer, not before', async () => {
    callAsViewer.mockReturnValue(new Promise<never>(() => {}));
    let outcome: 'pending' | Error = 'pending';
    ping(request).catch((error: Error) => {
      outcome = error;
    });
    await vi.advanceTimersByTimeAsync(PING_TIMEOUT_MS - 1);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(Error);
    expect(String(outcome)).toContain(`${PING_TIMEOUT_MS} ms`);
  });
});
