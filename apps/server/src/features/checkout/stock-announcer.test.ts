import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createStockAnnouncer } from './stock-announcer.ts';

/** The announcer's windows pass on a fake clock, so no test waits for them. */
function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
}

describe('createStockAnnouncer', () => {
  it('republishes each changed product once per window', async () => {
    useFakeClock();
    const republished: string[] = [];
    const announcer = createStockAnnouncer(
      async (uid) => {
        republished.push(uid);
      },
      () => {},
      20,
    );
    for (let i = 0; i < 50; i++) announcer.changed('flash');
    announcer.changed('mug');
    await vi.advanceTimersByTimeAsync(19);
    expect(republished).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(republished.sort()).toEqual(['flash', 'mug']);
    announcer.changed('flash');
    await vi.advanceTimersByTimeAsync(20);
    expect(republished.filter((uid) => uid === 'flash')).toHaveLength(2);
    await announcer.close();
  });

  it('drops scheduled work on close and reports failures', async () => {
    useFakeClock();
    const republished: string[] = [];
    const errors: unknown[] = [];
    const announcer = createStockAnnouncer(
      async (uid) => {
        republished.push(uid);
        throw new Error('down');
      },
      (error) => errors.push(error),
      10,
    );
    announcer.changed('a');
    await vi.advanceTimersByTimeAsync(10);
    expect(errors).toHaveLength(1);
    announcer.changed('b');
    await announcer.close();
    announcer.changed('c');
    await vi.advanceTimersByTimeAsync(40);
    expect(republished).toEqual(['a']);
  });
});
