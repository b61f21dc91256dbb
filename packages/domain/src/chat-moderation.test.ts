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

describe('blocked words written to slip past a filter (issue 33 §3)', () => {
  const words = ['ass', 'scam'];
  // Each hides "ass" or "scam" the way a viewer would to get it past the filter.
  const bypasses: Array<[string, string]> = [
    ['zero-width space', 'you a\u200Bss'],
    ['zero-width joiner and non-joiner', 'you a\u200Ds\u200Cs'],
    ['soft hyphen', 'you as\u00ADs'],
    ['word joiner and byte-order mark', 'you a\u2060s\uFEFFs'],
    ['Cyrillic look-alikes', 'what a \u0455\u0441\u0430m'],
    ['Greek and Cyrillic capitals', 'ΑЅЅ!'],
    ['full-width letters', 'ｙｏｕ ａｓｓ'],
    ['mathematical bold letters', '\u{1D41A}\u{1D42C}\u{1D42C} indeed'],
    ['spacing', 'you a s s'],
    ['punctuation', 'you a.s.s!'],
    ['mixed punctuation and connectors', 'what a s-c_a*m'],
    ['circled letters and a variation selector', 'you \u24D0\uFE0F\u24E2\u24E2'],
    ['a mixture', 'what a ｓ\u200B. с\u00AD а m'],
  ];
  it.each(bypasses)('catches %s', (_name, text) => {
    expect(findBlockedWords(text, words)).toHaveLength(1);
    expect(maskBlockedWords(text, words)).not.toBe(text);
  });

  it('masks the hidden word with its invisible and separating characters', () => {
    expect(maskBlockedWords('you a\u200Bss!', words)).toBe('you ****!');
    expect(maskBlockedWords('you a.s.s, ok', words)).toBe('you *****, ok');
    expect(maskBlockedWords('ok,ass', words)).toBe('ok,***');
  });

  it('catches a blocked word written in another script in the list', () => {
    expect(findBlockedWords('это ѕсаm', ['scam'])).toEqual(['scam']);
    expect(findBlockedWords('that scam', ['ѕсаm'])).toEqual(['ѕсаm']);
  });

  const ordinary: Array<[string, string, string]> = [
    ['English', 'ass', 'A class of its own, pass the glass, assess the bass'],
    ['German', 'ass', 'Zur Kasse bitte, die Klasse passt, Assistent'],
    ['Swedish', 'ass', 'Det passar, passa på, kassa och massor av assistans'],
    ['Italian', 'ass', 'Passa alla cassa, assai bello'],
    ['English, spaced', 'ass', 'Was sad, has some, a sassy bag, as soon as'],
    ['German', 'arsch', 'Ein Barsch im Marsch'],
    ['Spanish', 'puta', 'La disputa por la computadora, reputación'],
    ['Swedish', 'fan', 'Fantastisk, det fanns en fanatisk fana'],
    ['Danish', 'lort', 'Blomsterlort? nej: ulorte ting'],
    ['Korean', '개', '개발자가 만든 개나리 가방'],
    ['Korean', '바보', '바보야가 아니라 바보스러운 옷'],
    ['French', 'con', 'Un conseil: la confiance, le cône, le flacon'],
    ['Polish', 'kurwa', 'Kurwanie? Nie, kurwiki i kurwinek'],
    ['Finnish', 'paska', 'Paskamainen ei, mutta paskan-väri: pas ka'],
  ];
  it.each(ordinary)('does not catch ordinary %s words (blocked "%s")', (_language, word, text) => {
    expect(findBlockedWords(text, [word])).toEqual([]);
    expect(maskBlockedWords(text, [word])).toBe(text);
  });

  it('keeps matching blocked Korean words and phrases as whole words', () => {
    expect(findBlockedWords('너 바보 맞지', ['바보'])).toEqual(['바보']);
    expect(findBlockedWords('buy now , cheap', ['buy now'])).toEqual(['buy now']);
    expect(findBlockedWords('buynow', ['buy now'])).toEqual([]);
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
