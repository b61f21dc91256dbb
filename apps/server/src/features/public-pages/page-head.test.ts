import { describe, expect, it } from 'vitest';
import { escapeHtml, type PageHead, renderPageHead, scriptSafeJson } from './page-head.ts';
import { absoluteUrl, shorten } from './page-head-model.ts';
import { publicPageAddress, shopPath, showPath } from './public-page-address.ts';
import { renderSitemap } from './sitemap.ts';
import { isoDuration } from './structured-data.ts';

describe('which paths are public pages', () => {
  it.each([
    ['/', { kind: 'shop', pageUid: 'front' }],
    ['/widget/shop-a', { kind: 'shop', pageUid: 'shop-a' }],
    ['/widget/shop-a/', { kind: 'shop', pageUid: 'shop-a' }],
    ['/widget/shop-a/camp', { kind: 'show', pageUid: 'shop-a', campaignUid: 'camp', eventUid: null }],
    [
      '/widget/shop-a/campaign/camp/event/ev-1',
      { kind: 'show', pageUid: 'shop-a', campaignUid: 'camp', eventUid: 'ev-1' },
    ],
    ['/widget/shop%20a', { kind: 'shop', pageUid: 'shop a' }],
  ])('%s is a public page', (path, address) => {
    expect(publicPageAddress(path, 'front')).toEqual(address);
  });

  it.each([
    '/studio',
    '/studio/shows',
    '/terms',
    '/camp/checkout-1',
    '/camp/checkout-1/success',
    '/widget',
    '/widget/multi-event',
    '/widget/shop-a/multi-event',
    '/widget/shop-a/tiktok',
    '/shop-a/tiktok',
    '/widget/shop-a/camp/checkout-1',
    '/widget/shop-a/campaign/camp/event/ev-1/checkout/checkout-1',
    '/widget/%E0%A4%A',
  ])('%s is not', (path) => {
    expect(publicPageAddress(path, 'front')).toBeNull();
  });

  it('writes the canonical paths: the front page for the default store, the event for a show', () => {
    expect(shopPath('front', 'front')).toBe('/');
    expect(shopPath('shop a', 'front')).toBe('/widget/shop%20a');
    expect(showPath('shop-a', 'camp', 'ev 1')).toBe('/widget/shop-a/campaign/camp/event/ev%201');
  });
});

describe('escaping', () => {
  it('escapes the five characters that end an attribute or element', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });

  it('writes JSON no text in it can end the script element with, and that parses back unchanged', () => {
    const value = { name: '</script><script>alert(1)</script><!-- & \u2028' };
    const json = scriptSafeJson(value);
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  const head: PageHead = {
    page: 'show',
    lang: 'en',
    title: '"Quoted" <b>show</b>',
    description: "It's </title> here",
    canonicalUrl: 'https://shop.example.com/widget/a?x="y"',
    alternates: [{ hreflang: 'x-default', href: 'https://shop.example.com/widget/a' }],
    icon: null,
    preloadImages: [],
    openGraph: {
      type: 'video.other',
      siteName: 'A & B',
      locale: 'en_GB',
      alternateLocales: [],
      image: { url: 'http://cdn.example.com/a.jpg', width: null, height: null, alt: '<img>' },
      video: null,
    },
    twitterPlayer: null,
    structuredData: [{ '@type': 'Thing', name: '</script>' }],
  };

  it('renders a head whose values are all escaped, with no https-only tags for an http image', () => {
    const html = renderPageHead(head);
    expect(html).toContain('<title>&quot;Quoted&quot; &lt;b&gt;show&lt;/b&gt;</title>');
    expect(html).toContain('<meta name="description" content="It&#39;s &lt;/title&gt; here">');
    expect(html).toContain('<link rel="canonical" href="https://shop.example.com/widget/a?x=&quot;y&quot;">');
    expect(html).toContain('<meta property="og:image:alt" content="&lt;img&gt;">');
    expect(html).not.toContain('og:image:secure_url');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).toContain('"name":"\\u003c/script\\u003e"');
  });

  it('fetches the pictures at the top of the page from the head, in order, at high priority where asked', () => {
    expect(renderPageHead(head)).not.toContain('rel="preload"');
    expect(
      renderPageHead({ ...head, preloadImages: [{ url: '/media/a "b".jpg', highPriority: true }] }),
    ).toContain('<link rel="preload" as="image" href="/media/a &quot;b&quot;.jpg" fetchpriority="high">');
    const both = renderPageHead({
      ...head,
      preloadImages: [
        { url: '/media/cover.jpg', highPriority: true },
        { url: '/media/logo.svg', highPriority: false },
      ],
    });
    expect(both).toContain(
      '<link rel="preload" as="image" href="/media/cover.jpg" fetchpriority="high">\n    ' +
        '<link rel="preload" as="image" href="/media/logo.svg">',
    );
  });

  it('has a summary card without an image', () => {
    const html = renderPageHead({ ...head, openGraph: { ...head.openGraph, image: null } });
    expect(html).toContain('<meta name="twitter:card" content="summary">');
    expect(html).not.toContain('og:image');
  });
});

describe('values in the head', () => {
  it.each([
    [0, 'PT0S'],
    [59.6, 'PT1M'],
    [3600, 'PT1H'],
    [3725, 'PT1H2M5S'],
    [-5, 'PT0S'],
  ])('%s seconds last %s', (seconds, iso) => {
    expect(isoDuration(seconds)).toBe(iso);
  });

  it('shortens a description on a word, with an ellipsis', () => {
    expect(shorten('short  text\n here')).toBe('short text here');
    const long = `${'word '.repeat(60)}end`;
    const short = shorten(long, 50);
    expect(short.length).toBeLessThanOrEqual(50);
    expect(short).toMatch(/^word( word)*…$/);
  });

  it('makes media URLs absolute on the site, and refuses what is no http(s) URL', () => {
    expect(absoluteUrl('/media/a.jpg', 'https://shop.example.com')).toBe(
      'https://shop.example.com/media/a.jpg',
    );
    expect(absoluteUrl('https://cdn.example.com/b.jpg', 'https://shop.example.com')).toBe(
      'https://cdn.example.com/b.jpg',
    );
    expect(absoluteUrl('javascript:alert(1)', 'https://shop.example.com')).toBeNull();
  });
});

describe('the sitemap', () => {
  it('lists each language version with all alternates and escapes addresses', () => {
    const xml = renderSitemap(
      [{ path: '/widget/a&b', lastModified: Date.UTC(2026, 0, 2, 3, 4, 5, 678), languages: ['da'] }],
      'https://shop.example.com',
    );
    expect(xml.match(/<url>/g)).toHaveLength(2);
    expect(xml).toContain('<loc>https://shop.example.com/widget/a&amp;b?lang=da</loc>');
    expect(xml).toContain('<lastmod>2026-01-02T03:04:05Z</lastmod>');
    expect(
      xml.match(/hreflang="x-default" href="https:\/\/shop.example.com\/widget\/a&amp;b"/g),
    ).toHaveLength(2);
  });
});
