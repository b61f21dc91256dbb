// @vitest-environment happy-dom
import { act } from 'preact/test-utils';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { XSS_FLAG, XSS_PAYLOADS } from '../../../../../e2e/support/xss-corpus.ts';
import { RichDescription } from './rich-description.tsx';

let container: HTMLElement;
let root: Root;
beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

const render = (html: string, text = 'plain') =>
  act(() => root.render(<RichDescription text={text} html={html} />));

describe('RichDescription', () => {
  it('keeps paragraphs, lists, bold, italic and http(s) links', () => {
    render(
      '<p>Washed <b>linen</b> and <i>hemp</i></p><ul><li>One</li><li><a href="https://shop.example/care">Care</a></li></ul>',
    );
    expect(container.innerHTML).toBe(
      '<div class="product-details__description product-details__description--rich"><p>Washed <strong>linen</strong> and <em>hemp</em></p><ul><li>One</li><li><a href="https://shop.example/care" target="_blank" rel="noopener noreferrer nofollow">Care</a></li></ul></div>',
    );
  });

  it('shows the plain text when there is no formatted form', () => {
    act(() => root.render(<RichDescription text={'Line one\nLine two'} html={null} />));
    expect(container.querySelector('p')?.textContent).toBe('Line one\nLine two');
  });

  it.each(XSS_PAYLOADS)('builds nothing that can run from %s', (payload) => {
    render(
      `<p><b>x</b>${payload}</p><a href=" javascript:window.${XSS_FLAG}=1">y</a><a href="data:text/html,<script>1</script>">z</a>`,
    );
    const all = [...container.querySelectorAll('*')];
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
