import { describe, expect, it } from 'vitest';
import { pageRange } from './use-cursor-pages.ts';

describe('the rows a page shows', () => {
  it('numbers them from the page’s first, and is null for an empty page (no "Entries 1–0")', () => {
    expect(pageRange(1, 50)).toEqual({ first: 1, last: 50 });
    expect(pageRange(51, 3)).toEqual({ first: 51, last: 53 });
    expect(pageRange(1, 0)).toBeNull();
  });
});
