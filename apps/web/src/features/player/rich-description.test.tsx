// @vitest-environment happy-dom
import { act } from 'preact/test-utils';
import { describe, expect, it } from 'vitest';
import { XSS_FLAG, XSS_PAYLOADS } from '../../../../../e2e/support/xss-corpus.ts';
import { mountEachTest } from '../../test-support/mount-each-test.ts';
import { RichDescription } from './rich-description.tsx';

const mounted = mountEachTest();

const render = (html: string, text = 'plain') =>
  act(() => mounted.root.render(<RichDescription text={text} html={html} />));

describe('RichDescription', () => {
  it('keeps paragraphs, lists, bold, italic and http(s) links', () => {
    render(
      '<p>Washed <b>linen</b> and <i>hemp</i></p><ul><li>One</li><li><a href="https://shop.example/care">Care</a></li></ul>',
    );
    expect(mounted.container.innerHTML).toBe(
      '<div class="product-details__description product-details__description--rich"><p>Washed <strong>linen</strong> and <em>hemp</em></p><ul><li>One</li><li><a href="https://shop.example/care" target="_blank" rel="noopener noreferrer nofollow">Care</a></li></ul></div>',
    );
  });

  it('shows the plain text when there is no formatted form', () => {
    act(() => mounted.root.render(<RichDescription text={'Line one\nLine two'} html={null} />));
    expect(mounted.container.querySelector('p')?.textContent).toBe('Line one\nLine two');
  });

  it.each(XSS_PAYLOADS)('builds nothing that can run from %s', (payload) => {
    render(
      `<p><b>x</b>${payload}</p><a href=" javascript:window.${XSS_FLAG}=1">y</a><a href="data:text/html,<script>1</script>">z</a>`,
    );
    const all = [...mounted.container.querySelectorAll('*')];
    const allowed = new Set(['DIV', 'P', 'BR', 'UL', 'OL', 'LI', 'STRONG', 'EM', 'A']);
    expect(all.filter((element) => !allowed.has(element.tagName)).map((element) => element.tagName)).toEqual(
      [],
    );
    for (const element of all) {
      const names = element.getAttributeNames();
      expect(names.filter((name) => !['class', 'href', 'target', 'rel'].includes(name))).toEqual([]);
      const href = element.getAttribute('href');
      if (href !== null) expect(href).toMatch(/^https?:\/\//);
    }
    expect((window as unknown as Record<string, unknown>)[XSS_FLAG]).toBeUndefined();
  });
});
