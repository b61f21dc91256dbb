import { describe, expect, it } from 'vitest';
import {
  findBlockedWords,
  isQuestion,
  maskBlockedWords,
  normalizeBlockedWords,
  slowModeWaitMs,
} from './chat-moderation.ts';

describe('isQuestion', () => {
  it('takes a comment with a question mark of any script as a question', () => {
    expect(isQuestion('Does it come in red?')).toBe(true);
    expect(isQuestion('¿Hay talla M')).toBe(true);
    expect(isQuestion('赤はありますか？')).toBe(true);
  });
  it('does not take a statement as one', () => {
    expect(isQuestion('Love this jacket!')).toBe(false);
  });
});

describe('blocked words', () => {
  const words = ['Spam', 'crème brûlée', 'fool'];

  it('matches whole words whatever their case or accents', () => {
    expect(findBlockedWords('SPAM here', words)).toEqual(['spam']);
    expect(findBlockedWords('I love CREME BRULEE.', words)).toEqual(['creme brulee']);
    expect(findBlockedWords('you Föol!', words)).toEqual(['fool']);
  });

  it('does not match inside other words', () => {
    expect(findBlockedWords('spammer foolish tomfool', words)).toEqual([]);
    expect(findBlockedWords('spam2 fool_x', words)).toEqual([]);
  });

  it('masks each occurrence with one star per character of the original', () => {
    expect(maskBlockedWords('SPAM and Spam, spammer', words)).toBe('**** and ****, spammer');
    expect(maskBlockedWords('Crème Brûlée!', words)).toBe('************!');
    // A decomposed accent (e + combining acute) is one character of the masked word, kept as it was written.
    expect(maskBlockedWords('fo\u0301ol x', words)).toBe('***** x');
  });

  it('leaves a clean text as it is', () => {
    expect(maskBlockedWords('Nice colours', words)).toBe('Nice colours');
  });

  it('normalizes a saved list: folded, trimmed, spaces collapsed, repeats and empties dropped', () => {
    expect(normalizeBlockedWords([' Spam ', 'SPAM', '', 'Crème   brûlée'])).toEqual(['spam', 'creme brulee']);
  });
});

describe('slowModeWaitMs', () => {
  it('lets a viewer without a comment, or with slow mode off, post at once', () => {
    expect(slowModeWaitMs(null, 10_000, 30)).toBe(0);
    expect(slowModeWaitMs(9_000, 10_000, 0)).toBe(0);
  });
  it('makes a viewer wait the rest of the interval', () => {
    expect(slowModeWaitMs(10_000, 15_000, 30)).toBe(25_000);
    expect(slowModeWaitMs(10_000, 40_000, 30)).toBe(0);
  });
});
