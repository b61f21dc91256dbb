import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { FIRST_ANSWERS_ELEMENT_ID, firstAnswerKey } from '@vitrine/protocol';
import { Window } from 'happy-dom';
import { type StructuredDataTest, structuredDataTestHtml } from 'structured-data-testing-tool';
import { schemas as schemaOrgTypes } from 'structured-data-testing-tool/lib/schemas.js';
import { Facebook, Twitter } from 'structured-data-testing-tool/presets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';
import { PAGE_HEAD_CACHE_MS } from './public-pages-service.ts';

const ORIGIN = 'https://shop.example.com';
const NOW = Date.UTC(2026, 10, 27, 18, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const SHOP = 'reach-shop';
/** A show name that tries to end the JSON-LD script and an attribute, and run its own script. */
const HOSTILE_NAME = 'Spring </script><script>alert(1)</script> "sale" <!-- & \'more\'';
const LIVE_URL = `${ORIGIN}/widget/${SHOP}/campaign/spring/event/spring-live`;
const REPLAY_URL = `${ORIGIN}/widget/${SHOP}/campaign/winter/event/winter-replay`;
const PLANNED_URL = `${ORIGIN}/widget/${SHOP}/campaign/summer/event/summer-next`;

/** schema.org types newer than the validator's type list (schema.org 15.0, 2022: OnlineBusiness > OnlineStore). */
const NEWER_SCHEMA_ORG_TYPES = new Set(['OnlineStore']);

const dist = mkdtempSync(join(tmpdir(), 'vitrine-public-pages-'));
// The app's real page template: the head goes where its <title> is.
writeFileSync(join(dist, 'index.html'), readFileSync(new URL('../../../../web/index.html', import.meta.url)));

let app: Awaited<ReturnType<typeof openTestApp>>;
/** The app's clock; only the last test moves it. */
let clock = NOW;

async function admin(method: 'PUT' | 'POST', url: string, payload: object): Promise<void> {
  const response = await app.server.inject({ method, url, headers: adminHeaders, payload });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
}

const showEvent = (id: string, campaignId: string, fields: Record<string, unknown>) =>
  admin('PUT', `/admin/events/${id}`, { pageUid: SHOP, campaignId, ...fields });

beforeAll(async () => {
  app = await openTestApp({
    now: () => clock,
    env: { VITRINE_WEB_DIST: dist, VITRINE_PUBLIC_URL: ORIGIN, VITRINE_DEFAULT_PAGE: SHOP },
  });
  await admin('PUT', `/admin/pages/${SHOP}`, {
    name: 'Lys & Lyd',
    description: 'Lamps and speakers, shown live from Aarhus.',
    logo: '/media/logo.png',
    language: 'da',
    languages: ['en', 'de'],
    currency: 'DKK',
    allowedOrigins: ['https://x.com'],
    address: { name: 'Lys & Lyd ApS', street: 'Havnegade 4', postCode: '8000', city: 'Aarhus C' },
  });
  await admin('PUT', '/admin/pages/other-shop', {
    name: 'Other',
    language: 'en',
    languages: ['da'],
    currency: 'DKK',
  });
  await admin('PUT', `/staff/stores/${SHOP}/products/lamp`, {
    name: 'Desk lamp',
    description: 'A lamp <b>for</b> the desk.',
    sku: 'LAMP-1',
    images: ['/media/lamp.jpg'],
    prices: { DKK: 49_900, EUR: 6_695 },
    stock: 3,
  });
  await admin('PUT', `/staff/stores/${SHOP}/products/speaker`, {
    name: 'Speaker',
    prices: { DKK: 129_900, EUR: 17_495 },
    stock: 0,
  });
  await admin('PUT', `/staff/stores/${SHOP}/products/cable`, { name: 'Cable', prices: { DKK: 4_900 } });
  for (const campaign of ['spring', 'winter', 'summer', 'secret', 'hidden'])
    await admin('PUT', `/admin/pages/${SHOP}/campaigns/${campaign}`, {
      name: campaign,
      deadline: NOW + 7 * 24 * HOUR,
    });
  await showEvent('spring-live', 'spring', {
    currentStatus: 'live',
    eventName: HOSTILE_NAME,
    eventStartTimestamp: NOW - HOUR,
    liveStartTime: NOW - 30 * MINUTE,
    liveVideoFormat: { width: 1080, height: 1920, picture: '/media/live-poster.jpg' },
  });
  await showEvent('winter-replay', 'winter', {
    currentStatus: 'vod',
    eventName: 'Winter lights',
    eventStartTimestamp: NOW - 48 * HOUR,
    liveStartTime: NOW - 48 * HOUR,
    liveEndTime: NOW - 47 * HOUR,
    cdnMp4VideoUrl: 'https://cdn.example.com/winter.mp4',
    liveVideoFormat: { width: 720, height: 1280, picture: null },
    coverPhotoPath: 'https://cdn.example.com/winter-cover.jpg',
  });
  await showEvent('summer-next', 'summer', {
    currentStatus: 'planned',
    eventName: 'Summer sound',
    eventStartTimestamp: NOW + 24 * HOUR,
    coverPhotoPath: '/media/summer.jpg',
  });
  await showEvent('secret-draft', 'secret', {
    status: 'draft',
    currentStatus: 'planned',
    eventName: 'Secret launch',
    eventStartTimestamp: NOW + 24 * HOUR,
  });
  await showEvent('hidden-private', 'hidden', {
    status: 'private',
    currentStatus: 'live',
    eventName: 'Staff only',
    eventStartTimestamp: NOW - HOUR,
    liveStartTime: NOW - HOUR,
  });
  await admin('PUT', '/admin/events/spring-live/products/lamp', { productUid: 'lamp', sorting: 1 });
  await admin('PUT', '/admin/events/spring-live/products/speaker', { productUid: 'speaker', sorting: 2 });
  await admin('PUT', '/admin/events/winter-replay/products/lamp', {
    productUid: 'lamp',
    sorting: 1,
    relativeCues: [{ presentationTime: 60_000, presentationEndTime: 300_000 }],
  });
  await admin('PUT', '/admin/events/winter-replay/products/cable', {
    productUid: 'cable',
    sorting: 2,
    relativeCues: [{ presentationTime: 300_000, presentationEndTime: null }],
  });
  await admin('PUT', '/admin/events/secret-draft/products/lamp', { productUid: 'lamp' });
});

afterAll(async () => {
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

async function page(url: string) {
  const response = await app.server.inject({ method: 'GET', url });
  const document = new new Window().DOMParser().parseFromString(response.body, 'text/html');
  const meta = (key: string) =>
    document.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content') ?? null;
  const ldScripts = [...document.querySelectorAll('script[type="application/ld+json"]')];
  const structuredData = ldScripts.flatMap(
    (script) => JSON.parse(script.textContent) as Record<string, unknown>[],
  );
  const ofType = (type: string) => structuredData.filter((item) => item['@type'] === type);
  return { response, html: response.body, document, meta, structuredData, ofType };
}

/** Every `@type` in the JSON-LD, nested ones too. */
function typesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(typesIn);
  if (value === null || typeof value !== 'object') return [];
  const own = (value as Record<string, unknown>)['@type'];
  return [...(typeof own === 'string' ? [own] : []), ...Object.values(value).flatMap(typesIn)];
}

/**
 * Validates the page offline with structured-data-testing-tool: the JSON-LD it finds, the meta
 * tags a chat app reads (its Twitter and Facebook presets) and our own expectations; every type
 * must be a schema.org type.
 */
async function validate(html: string, tests: StructuredDataTest[]) {
  const result = await structuredDataTestHtml(html, { presets: [Twitter, Facebook], tests }).catch(
    (error: { type?: string; res?: { failed: StructuredDataTest[] } }) => {
      const failed = error.res?.failed.map((test) => `${test.test}: ${test.error?.message ?? ''}`);
      throw new Error(`structured data failed: ${failed ? failed.join('; ') : String(error)}`);
    },
  );
  expect(result.failed).toEqual([]);
  const unknown = typesIn(Object.values(result.structuredData.jsonld)).filter(
    (type) => !(type in schemaOrgTypes) && !NEWER_SCHEMA_ORG_TYPES.has(type),
  );
  expect(unknown).toEqual([]);
  return result;
}

describe('the head of a live show', () => {
  it('tells a chat app its title, description, poster and address, and offers X a player card', async () => {
    const { response, meta, document } = await page('/widget/reach-shop/spring');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['x-robots-tag']).toBeUndefined();
    expect(meta('og:title')).toBe(`${HOSTILE_NAME} | Lys & Lyd`);
    expect(meta('og:type')).toBe('video.other');
    expect(meta('og:url')).toBe(LIVE_URL);
    expect(meta('og:image')).toBe(`${ORIGIN}/media/live-poster.jpg`);
    expect(meta('og:image:width')).toBe('1080');
    expect(meta('og:image:height')).toBe('1920');
    expect(meta('og:site_name')).toBe('Lys & Lyd');
    expect(meta('og:locale')).toBe('da_DK');
    // The store's main language (Danish) describes the page asked without ?lang.
    expect(meta('og:description')).toBe(
      'Live nu med Lys & Lyd: se med, og køb det, du ser. Med Desk lamp og Speaker.',
    );
    expect(meta('description')).toBe(meta('og:description'));
    expect(meta('og:video')).toBeNull();
    expect(meta('twitter:card')).toBe('player');
    expect(meta('twitter:player')).toBe(LIVE_URL);
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(LIVE_URL);
    const alternates = [...document.querySelectorAll('link[rel="alternate"]')].map((link) => [
      link.getAttribute('hreflang'),
      link.getAttribute('href'),
    ]);
    expect(alternates).toEqual([
      ['da', `${LIVE_URL}?lang=da`],
      ['en', `${LIVE_URL}?lang=en`],
      ['de', `${LIVE_URL}?lang=de`],
      ['x-default', LIVE_URL],
    ]);
    expect(document.querySelector('link[rel="icon"][href^="https:"]')?.getAttribute('href')).toBe(
      `${ORIGIN}/media/logo.png`,
    );
    // The poster is fetched from the head, as the player asks for it (relative), at the usual priority.
    const preload = document.querySelector('link[rel="preload"][as="image"]');
    expect(preload?.getAttribute('href')).toBe('/media/live-poster.jpg');
    expect(preload?.getAttribute('fetchpriority')).toBeNull();
    // Still the app: its root and its script are there, once.
    expect(document.querySelectorAll('#root')).toHaveLength(1);
    expect(document.querySelectorAll('title')).toHaveLength(1);
  });

  it('describes the show as a live broadcast with its products and offers, valid schema.org', async () => {
    const { html, ofType } = await page('/widget/reach-shop/campaign/spring/event/spring-live');
    await validate(html, [
      { test: 'VideoObject[0].publication."@type"', type: 'jsonld', expect: 'BroadcastEvent' },
      { test: 'VideoObject[0].publication.isLiveBroadcast', type: 'jsonld', expect: true },
      {
        test: 'VideoObject[0].publication.startDate',
        type: 'jsonld',
        expect: new Date(NOW - 30 * MINUTE).toISOString(),
      },
      { test: 'VideoObject[0].embedUrl', type: 'jsonld', expect: LIVE_URL },
      { test: 'VideoObject[0].thumbnailUrl[0]', type: 'jsonld', expect: `${ORIGIN}/media/live-poster.jpg` },
      { test: 'OnlineStore[0].name', type: 'jsonld', expect: 'Lys & Lyd' },
      { test: 'Product[0].name', type: 'jsonld', expect: 'Desk lamp' },
      { test: '"og:description"', type: 'metatag' },
    ]);
    const [video] = ofType('VideoObject');
    expect(video).toMatchObject({
      uploadDate: new Date(NOW - 30 * MINUTE).toISOString(),
      publisher: { '@id': `${ORIGIN}/#store` },
    });
    expect(video).not.toHaveProperty('duration');
    expect(video).not.toHaveProperty('contentUrl');
    expect((video?.publication as object | undefined) ?? {}).not.toHaveProperty('endDate');
    expect(ofType('Product').map((product) => product.offers)).toEqual([
      {
        '@type': 'Offer',
        url: LIVE_URL,
        price: '499.00',
        priceCurrency: 'DKK',
        availability: 'https://schema.org/LimitedAvailability',
        priceValidUntil: new Date(NOW + 7 * 24 * HOUR).toISOString().slice(0, 10),
        seller: { '@id': `${ORIGIN}/#store` },
      },
      expect.objectContaining({ price: '1299.00', availability: 'https://schema.org/OutOfStock' }),
    ]);
  });

  it('keeps a hostile show name inert: escaped in attributes and text, JSON in the data script', async () => {
    const { html, document, meta, structuredData } = await page('/widget/reach-shop/spring');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('"sale"');
    // The page's scripts are the app's own (runtime config, module) and the two data blocks
    // (JSON-LD, the first answers), which are never run.
    const scripts = [...document.querySelectorAll('script')].map((script) => ({
      type: script.getAttribute('type'),
      src: script.getAttribute('src'),
      text: script.textContent,
    }));
    expect(scripts.filter((script) => script.text.includes('alert(1)'))).toEqual([
      expect.objectContaining({ type: 'application/ld+json', src: null }),
      expect.objectContaining({ type: 'application/json', src: null }),
    ]);
    const dataTypes = ['application/ld+json', 'application/json'];
    expect(scripts.filter((script) => !dataTypes.includes(script.type ?? ''))).toEqual([
      expect.objectContaining({
        type: null,
        src: null,
        text: expect.stringMatching(/^window\.__VITRINE__=/),
      }),
      expect.objectContaining({ type: 'module', src: '/src/main.tsx' }),
    ]);
    // What the escaping carried is exactly the name, back out of each place.
    expect(document.querySelector('title')?.textContent).toBe(`${HOSTILE_NAME} | Lys & Lyd`);
    expect(meta('twitter:title')).toBe(`${HOSTILE_NAME} | Lys & Lyd`);
    expect(structuredData.find((item) => item['@type'] === 'VideoObject')?.name).toBe(HOSTILE_NAME);
    const answers = JSON.parse(document.getElementById(FIRST_ANSWERS_ELEMENT_ID)?.textContent ?? '{}');
    const campaign = answers[firstAnswerKey('liveEvents.byCampaign', { campaignIds: ['spring'] })];
    expect(campaign?.[0]?.event.eventName).toBe(HOSTILE_NAME);
  });

  it('serves the page with its head compressed for a browser that accepts brotli', async () => {
    const response = await app.server.inject({
      method: 'GET',
      url: '/widget/reach-shop/spring',
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toContain(
      `<link rel="canonical" href="${LIVE_URL}">`,
    );
  });
});

describe('the head of a replay', () => {
  it('has its video, length and chapters, and prices in the currency of the language asked for', async () => {
    const { html, meta, ofType, document } = await page('/widget/reach-shop/winter?lang=de');
    expect(document.documentElement.getAttribute('lang')).toBe('de');
    expect(meta('og:url')).toBe(`${REPLAY_URL}?lang=de`);
    expect(meta('og:locale')).toBe('de_DE');
    expect(meta('og:description')).toMatch(/^Aufzeichnung der Live-Shopping-Show mit Lys & Lyd vom /);
    expect(meta('og:image')).toBe('https://cdn.example.com/winter-cover.jpg');
    // The format's size is its own picture's; the cover's is unknown.
    expect(meta('og:image:width')).toBeNull();
    expect(meta('og:video')).toBe('https://cdn.example.com/winter.mp4');
    expect(meta('og:video:type')).toBe('video/mp4');
    expect(meta('og:video:width')).toBe('720');
    await validate(html, [
      { test: 'VideoObject[0].duration', type: 'jsonld', expect: 'PT1H' },
      { test: 'VideoObject[0].contentUrl', type: 'jsonld', expect: 'https://cdn.example.com/winter.mp4' },
      { test: 'VideoObject[0].embedUrl', type: 'jsonld', expect: `${REPLAY_URL}?lang=de` },
      {
        test: 'VideoObject[0].publication.endDate',
        type: 'jsonld',
        expect: new Date(NOW - 47 * HOUR).toISOString(),
      },
      { test: 'VideoObject[0].hasPart[0]."@type"', type: 'jsonld', expect: 'Clip' },
    ]);
    expect(ofType('VideoObject')[0]?.hasPart).toEqual([
      { '@type': 'Clip', name: 'Desk lamp', startOffset: 60, endOffset: 300 },
      { '@type': 'Clip', name: 'Cable', startOffset: 300, endOffset: 3600 },
    ]);
    // German shows euros; the cable has no euro price, so it states the store's own currency.
    expect(ofType('Product').map((product) => product.offers)).toEqual([
      expect.objectContaining({
        price: '66.95',
        priceCurrency: 'EUR',
        availability: 'https://schema.org/LimitedAvailability',
      }),
      expect.objectContaining({
        price: '49.00',
        priceCurrency: 'DKK',
        availability: 'https://schema.org/InStock',
      }),
    ]);
    expect(ofType('Product')[0]).toMatchObject({ image: [`${ORIGIN}/media/lamp.jpg`], sku: 'LAMP-1' });
  });
});

describe('the head of an upcoming show', () => {
  it('names its date and has no player or video yet', async () => {
    const { html, meta, ofType } = await page('/widget/reach-shop/summer?lang=en');
    expect(meta('og:url')).toBe(`${PLANNED_URL}?lang=en`);
    // Store time (Copenhagen, UTC+1 in November).
    expect(meta('og:description')).toBe('Live shopping show with Lys & Lyd on 28 November 2026 at 19:00.');
    expect(meta('og:video')).toBeNull();
    await validate(html, [
      {
        test: 'VideoObject[0].publication.startDate',
        type: 'jsonld',
        expect: new Date(NOW + 24 * HOUR).toISOString(),
      },
    ]);
    expect(ofType('VideoObject')[0]).not.toHaveProperty('embedUrl');
  });
});

describe('the head of the shop page', () => {
  it('answers a HEAD request (link checkers and chat apps send them) like the page', async () => {
    const response = await app.server.inject({ method: 'HEAD', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toBe('');
  });

  it('describes the store as an OnlineStore at the front page, whichever address shows it', async () => {
    for (const url of ['/', '/widget/reach-shop', '/widget/reach-shop/']) {
      const { html, meta, document } = await page(url);
      // The lead card's cover (the live show's picture) is the page's largest paint: fetched first.
      const [preload, logoPreload, ...more] = document.querySelectorAll('link[rel="preload"][as="image"]');
      expect(preload?.getAttribute('href')).toBe('/media/live-poster.jpg');
      expect(preload?.getAttribute('fetchpriority')).toBe('high');
      // Then the logo beside the store's name, as the page asks for it, so the header does not move.
      expect(logoPreload?.getAttribute('href')).toBe('/media/logo.png');
      expect(logoPreload?.getAttribute('fetchpriority')).toBeNull();
      expect(more).toEqual([]);
      expect(meta('og:url')).toBe(`${ORIGIN}/`);
      expect(meta('og:type')).toBe('website');
      expect(meta('og:title')).toBe('Lys & Lyd');
      expect(meta('og:description')).toBe('Lamps and speakers, shown live from Aarhus.');
      expect(meta('og:image')).toBe(`${ORIGIN}/media/logo.png`);
      await validate(html, [
        { test: 'OnlineStore[0].url', type: 'jsonld', expect: `${ORIGIN}/` },
        { test: 'OnlineStore[0].logo', type: 'jsonld', expect: `${ORIGIN}/media/logo.png` },
        { test: 'OnlineStore[0].address.postalCode', type: 'jsonld', expect: '8000' },
        { test: 'VideoObject', type: 'jsonld', expect: false },
      ]);
    }
  });
});

/** The answers a page carries for its first reads (protocol first-answers.ts), by key. */
async function firstAnswersIn(url: string): Promise<Record<string, unknown>> {
  const { document } = await page(url);
  const element = document.getElementById(FIRST_ANSWERS_ELEMENT_ID);
  expect(element?.getAttribute('type'), url).toBe('application/json');
  return JSON.parse(element?.textContent ?? 'null') as Record<string, unknown>;
}

const readAnswer = async (name: string, params: object) =>
  (
    await app.server.inject({
      method: 'GET',
      url: `/reads/${name}?params=${encodeURIComponent(JSON.stringify(params))}`,
    })
  ).json();

describe("a public page's first answers", () => {
  it('carry what the shop page reads before it paints, as the reads answer it', async () => {
    const storeInfo = (
      await app.server.inject({
        method: 'POST',
        url: '/functions/customerpage/storeInfo',
        payload: { pageUid: SHOP },
      })
    ).json();
    expect(await firstAnswersIn('/')).toEqual({
      [firstAnswerKey('storeInfo', { pageUid: SHOP })]: storeInfo,
      [firstAnswerKey('playerSettings', { pageUid: SHOP })]: await readAnswer('playerSettings', {
        pageUid: SHOP,
      }),
      [firstAnswerKey('liveEvents.shop', { pageUid: SHOP })]: await readAnswer('liveEvents.shop', {
        pageUid: SHOP,
      }),
    });
  });

  it("carry a show's campaign and the products of the show the app plays, the campaign's address's too", async () => {
    for (const url of ['/widget/reach-shop/spring', '/widget/reach-shop/campaign/spring/event/spring-live']) {
      const answers = await firstAnswersIn(url);
      expect(answers[firstAnswerKey('liveEvents.byCampaign', { campaignIds: ['spring'] })], url).toEqual(
        await readAnswer('liveEvents.byCampaign', { campaignIds: ['spring'] }),
      );
      const products = answers[firstAnswerKey('liveEventProducts', { eventId: 'spring-live' })];
      expect(products, url).toEqual(await readAnswer('liveEventProducts', { eventId: 'spring-live' }));
      expect(products, url).not.toEqual([]);
      expect(Object.keys(answers), url).toHaveLength(4);
    }
  });
});

describe('pages that are not public', () => {
  it('get the plain page, marked not to be indexed: drafts, private shows, checkouts, unknown stores', async () => {
    for (const url of [
      '/widget/reach-shop/secret',
      '/widget/reach-shop/campaign/secret/event/secret-draft',
      '/widget/reach-shop/hidden',
      '/widget/reach-shop/spring/checkout-123',
      '/spring/checkout-123',
      '/studio',
      '/widget/unknown-shop',
      '/widget/unknown-shop/spring',
      // A show named through another store's address.
      '/widget/other-shop/campaign/spring/event/spring-live',
    ]) {
      const { response, document } = await page(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['x-robots-tag'], url).toBe('noindex');
      expect(document.querySelector('title')?.textContent, url).toBe('Vitrine');
      expect(
        document.querySelectorAll(
          'meta[property^="og:"], script[type="application/ld+json"], link[rel="canonical"]',
        ),
        url,
      ).toHaveLength(0);
      expect(document.getElementById(FIRST_ANSWERS_ELEMENT_ID), url).toBeNull();
      expect(response.body, url).not.toMatch(/Secret launch|Staff only/);
    }
  });
});

describe('robots.txt and the sitemap', () => {
  it('robots.txt keeps crawlers out of the studio, checkouts and widget-only pages and names the sitemap', async () => {
    const response = await app.server.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of [
      '/studio',
      '/options/',
      '/select-checkout-location/',
      '/*/tiktok$',
      '/widget/*/multi-event',
    ])
      expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).not.toContain('Disallow: /widget/');
    expect(lines).not.toContain('Disallow: /');
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });

  it('the sitemap lists the shop and its public shows in every language, with alternates and dates', async () => {
    const response = await app.server.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    const xml = new new Window().DOMParser().parseFromString(response.body, 'application/xml');
    const urls = [...xml.getElementsByTagName('url')].map((url) => ({
      loc: url.getElementsByTagName('loc')[0]?.textContent,
      lastmod: url.getElementsByTagName('lastmod')[0]?.textContent,
      alternates: [...url.getElementsByTagName('xhtml:link')].map(
        (link) => `${link.getAttribute('hreflang')} ${link.getAttribute('href')}`,
      ),
    }));
    const pages = [`${ORIGIN}/`, LIVE_URL, REPLAY_URL, PLANNED_URL];
    const otherShop = `${ORIGIN}/widget/other-shop`;
    expect(urls.map((url) => url.loc).sort()).toEqual(
      [
        ...pages.flatMap((url) => [url, `${url}?lang=da`, `${url}?lang=en`, `${url}?lang=de`]),
        ...[otherShop, `${otherShop}?lang=en`, `${otherShop}?lang=da`],
      ].sort(),
    );
    expect(urls.find((url) => url.loc === otherShop)?.alternates).toEqual([
      `en ${otherShop}?lang=en`,
      `da ${otherShop}?lang=da`,
      `x-default ${otherShop}`,
    ]);
    for (const url of urls.filter((entry) => !entry.loc?.startsWith(otherShop))) {
      expect(url.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      const plain = url.loc?.replace(/\?lang=\w+$/, '');
      expect(url.alternates).toEqual([
        `da ${plain}?lang=da`,
        `en ${plain}?lang=en`,
        `de ${plain}?lang=de`,
        `x-default ${plain}`,
      ]);
    }
    expect(response.body).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    expect(response.body).not.toMatch(/secret|hidden/);
  });
});

describe('a page head', () => {
  it('is reused for a few seconds, then made again from what changed', async () => {
    const summer = {
      currentStatus: 'planned',
      eventStartTimestamp: NOW + 24 * HOUR,
      coverPhotoPath: '/media/summer.jpg',
    };
    expect((await page('/widget/reach-shop/summer?lang=en')).meta('og:title')).toBe(
      'Summer sound | Lys & Lyd',
    );
    await showEvent('summer-next', 'summer', { ...summer, eventName: 'Summer sound, extended' });
    expect((await page('/widget/reach-shop/summer?lang=en')).meta('og:title')).toBe(
      'Summer sound | Lys & Lyd',
    );
    clock += PAGE_HEAD_CACHE_MS;
    expect((await page('/widget/reach-shop/summer?lang=en')).meta('og:title')).toBe(
      'Summer sound, extended | Lys & Lyd',
    );
  });
});
