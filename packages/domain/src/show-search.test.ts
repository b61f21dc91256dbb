import { describe, expect, it } from 'vitest';
import { parseStartTime, prefixQuery, SEARCH_MAX_TERMS, searchTerms, startTimeParam } from './show-search.ts';

describe('searchTerms', () => {
  it('keeps letters and digits of any script, lower-cased, each word once', () => {
    expect(searchTerms('  Blue MUG, blue mug 2 ')).toEqual(['blue', 'mug', '2']);
    expect(searchTerms('Kaffekop — ØKO')).toEqual(['kaffekop', 'øko']);
    expect(searchTerms('가방')).toEqual(['가방']);
  });

  it('drops every tsquery operator, so the text cannot change the query', () => {
    expect(searchTerms("mug:* | !cup & (x) <-> 'y'")).toEqual(['mug', 'cup', 'x', 'y']);
    expect(searchTerms('&|!():*')).toEqual([]);
  });

  it('keeps at most SEARCH_MAX_TERMS words', () => {
    const words = Array.from({ length: 20 }, (_, index) => `w${index}`);
    expect(searchTerms(words.join(' '))).toHaveLength(SEARCH_MAX_TERMS);
  });

  it('makes every word a required prefix', () => {
    expect(prefixQuery(['blue', 'mug'])).toBe('blue:* & mug:*');
  });
});

describe('parseStartTime', () => {
  it('reads whole and decimal seconds', () => {
    expect(parseStartTime('95')).toBe(95);
    expect(parseStartTime('95.5')).toBe(95.5);
    expect(parseStartTime('0')).toBe(0);
  });

  it('is null for no parameter and anything else', () => {
    for (const bad of [null, '', '-5', 'abc', '1e9', '1m35s', 'NaN', 'Infinity', ' 5', '1234567']) {
      expect(parseStartTime(bad)).toBeNull();
    }
  });

  it('writes whole seconds, never below 0', () => {
    expect(startTimeParam(42.9)).toBe('42');
    expect(startTimeParam(-3)).toBe('0');
  });
});
