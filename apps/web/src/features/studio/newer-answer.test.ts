import { describe, expect, it } from 'vitest';
import { answerIsNewer } from './newer-answer.ts';

describe('answerIsNewer', () => {
  it('shows an earlier request’s answer while a later one is still in flight (a page reloading every second)', () => {
    // Requests 1, 2, 3 went out a second apart; the server answers each in 1.5 s: 1 arrives while 2
    // and 3 are in flight, and must be shown.
    expect(answerIsNewer(1, 0, 1)).toBe(true);
    expect(answerIsNewer(2, 1, 1)).toBe(true);
  });

  it('never lets a slower earlier answer overwrite a newer one', () => {
    expect(answerIsNewer(2, 3, 1)).toBe(false);
    expect(answerIsNewer(3, 3, 1)).toBe(false);
  });

  it('drops answers to an input that has changed since', () => {
    // Request 4 was the first for the new input: 3's answer is for the old one.
    expect(answerIsNewer(3, 2, 4)).toBe(false);
    expect(answerIsNewer(4, 2, 4)).toBe(true);
  });
});
