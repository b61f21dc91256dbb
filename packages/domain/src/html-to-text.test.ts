import { describe, expect, it } from 'vitest';
import { htmlToPlainText, plainTextToHtml } from './html-to-text.ts';

describe('htmlToPlainText', () => {
  it('keeps the words and the paragraphs', () => {
    expect(htmlToPlainText('<p>Warm <strong>wool</strong> socks.</p><p>Made in Denmark.</p>')).toBe(
      'Warm wool socks.\n\nMade in Denmark.',
    );
    expect(htmlToPlainText('Line one<br/>Line two')).toBe('Line one\nLine two');
    expect(htmlToPlainText('<ul><li>Soft</li><li>Warm</li></ul>')).toBe('• Soft\n• Warm');
  });

  it('drops script, style, comments and attributes: nothing stays that could run', () => {
    const text = htmlToPlainText(
      '<p onclick="alert(1)">Hi</p><script>alert("x")</script><style>p{}</style><!-- note --><img src=x onerror=alert(1)>',
    );
    expect(text).toBe('Hi');
  });

  it('decodes entities once (an escaped tag stays text)', () => {
    expect(htmlToPlainText('Fish &amp; chips &lt;b&gt; &#248; &#xE5; &oslash; &unknown;')).toBe(
      'Fish & chips <b> ø å ø &unknown;',
    );
  });
});

describe('plainTextToHtml', () => {
  it('escapes and round-trips through htmlToPlainText', () => {
    const text = 'Size <M> & "L"\nSecond line';
    expect(plainTextToHtml(text)).toBe('Size &lt;M&gt; &amp; &quot;L&quot;<br>Second line');
    expect(htmlToPlainText(plainTextToHtml(text))).toBe(text);
  });
});
