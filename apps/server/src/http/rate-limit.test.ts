import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test-support/test-app.ts';
import { deleteStaleRateLimits, RATE_LIMIT_RETENTION_MS, takeRateLimit } from './rate-limit.ts';

let db: Awaited<ReturnType<typeof openTestDatabase>>;
const LIMIT = { max: 2, windowMs: 60_000 };
const NOW = 1_800_000_000_000;

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.dispose();
});

describe('rate limit counters', () => {
  it('deletes counters of long-finished windows and keeps the ones that may still be counting', async () => {
    // Every viewer, address and action leaves a row: a week of visitors…
    for (let visitor = 0; visitor < 50; visitor++) {
      await takeRateLimit(db, `ping:user:${visitor}`, LIMIT, NOW - 7 * 24 * 60 * 60_000);
    }
    // …and the viewers of today, one of whom has used up the limit.
    await takeRateLimit(db, 'ping:user:today', LIMIT, NOW - 1000);
    await takeRateLimit(db, 'ping:user:today', LIMIT, NOW - 500);
    await takeRateLimit(db, 'ping:user:recent', LIMIT, NOW - RATE_LIMIT_RETENTION_MS + 60_000);

    expect(await deleteStaleRateLimits(db, NOW)).toBe(50);
    const kept = await db.query<{ key: string }>('SELECT key FROM rate_limits ORDER BY key');
    expect(kept.map((row) => row.key)).toEqual(['ping:user:recent', 'ping:user:today']);
    // The live window still counts: the third take in it is refused.
    expect(await takeRateLimit(db, 'ping:user:today', LIMIT, NOW)).toMatchObject({ allowed: false });
  });
});
