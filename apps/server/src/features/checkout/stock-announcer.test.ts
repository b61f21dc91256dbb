import { describe, expect, it } from 'vitest';
import { createStockAnnouncer } from './stock-announcer.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createStockAnnouncer', () => {
  it('republishes each changed product once per window', async () => {
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
    await wait(60);
    expect(republished.sort()).toEqual(['flash', 'mug']);
    announcer.changed('flash');
    await wait(60);
    expect(republished.filter((uid) => uid === 'flash')).toHaveLength(2);
    await announcer.close();
  });

  it('drops scheduled work on close and reports failures', async () => {
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
    await wait(40);
    expect(errors).toHaveLength(1);
    announcer.changed('b');
    await announcer.close();
    announcer.changed('c');
    await wait(40);
    expect(republished).toEqual(['a']);
  });
});
