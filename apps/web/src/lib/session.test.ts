import { TOKEN_REFRESH_INTERVAL_MS } from '@vitrine/domain';
import { describe, expect, it, vi } from 'vitest';

vi.mock('./debug.ts', () => import('./debug-test-double.ts'));
vi.mock('./realtime/use-live-query.ts', () => ({
  getRealtimeClient: () => ({ refreshAuth: async () => undefined }),
  setRealtimeTokenProvider: () => undefined,
}));
vi.mock('./runtime-config.ts', () => ({ runtimeConfig: { mainUrl: '', shopUrl: '', defaultPageUid: 'x' } }));

const { refreshDelayMs } = await import('./session.ts');
const HOUR = 60 * 60_000;

describe('session refresh (spec §7 "refreshed every 30 minutes")', () => {
  it('refreshes 30 minutes after the token was issued', () => {
    const issuedAt = 1_000_000;
    expect(refreshDelayMs({ expiresAt: issuedAt + HOUR }, HOUR, issuedAt)).toBe(TOKEN_REFRESH_INTERVAL_MS);
    expect(refreshDelayMs({ expiresAt: issuedAt + HOUR }, HOUR, issuedAt + 10 * 60_000)).toBe(20 * 60_000);
  });

  it('refreshes at once when the 30 minutes have passed', () => {
    expect(refreshDelayMs({ expiresAt: 2 * HOUR }, HOUR, HOUR + 45 * 60_000)).toBe(0);
  });
});
