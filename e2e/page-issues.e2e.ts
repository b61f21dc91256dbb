/**
 * What Lighthouse finds on the public pages (issue 32), checked in Chromium: no DevTools issue
 * (Best Practices takes points off for any; its `inspector-issues` audit reads the same Audits
 * domain: the live show once loaded zod, whose `new Function` probe the page's CSP refused), and
 * the shop page's head fetching what it paints first (its lazy route's chunks, its lead cover).
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumForFile } from './support/file-chromium.ts';
import { testServer } from './support/test-server.ts';

const { baseUrl } = testServer();

/** The demo store's first clip page, as the sitemap lists it (the demo's ended show has clips). */
async function firstClipPath(): Promise<string> {
  const sitemap = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
  const clip = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)]
    .map((match) => new URL(match[1] ?? '').pathname)
    .find((path) => path.includes('/clips/'));
  if (!clip) throw new Error('the sitemap lists no clip page');
  return clip;
}

const PAGES: Record<string, { path: () => Promise<string> | string; ready: string }> = {
  shop: { path: () => '/', ready: '.shop-row' },
  live: { path: () => '/widget/demo-store/demo-autumn-living', ready: '.player' },
  replay: { path: () => '/widget/demo-store/demo-kitchen-favourites', ready: '.player' },
  clip: { path: firstClipPath, ready: '.clip-video video' },
};

const browser = chromiumForFile();

describe("the shop page's head", () => {
  it('fetches its lazy route chunks and its lead cover before the entry script has run', async () => {
    const html = await (await fetch(`${baseUrl}/`)).text();
    expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/shop-page-[^"]+\.js">/);
    expect(html).toMatch(/<link rel="preload" as="image" href="[^"]+" fetchpriority="high">/);
    // After the entry script and its chunks, which the page needs first.
    expect(html.indexOf('rel="modulepreload" crossorigin href="/assets/shop-page-')).toBeGreaterThan(
      html.indexOf('<script type="module"'),
    );
    // The page loads each of them once: the app's own import finds the preloaded module.
    const page = await browser().newPage();
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' });
    await page.locator('.shop-row').first().waitFor({ timeout: 60_000 });
    await page.close();
    const shopChunks = fetched.filter((path) => /^\/assets\/shop-page-/.test(path));
    expect(shopChunks.length).toBeGreaterThan(0);
    expect(shopChunks).toEqual([...new Set(shopChunks)]);
  });
});

/** A phone, as Lighthouse's mobile preset has it. */
const PHONE = { viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, locale: 'en-GB' };

/**
 * Opens `path` on a phone with the picture its head preloads (the page's largest paint) held back,
 * as on a slow connection, until the page has rendered `rendered` and painted five frames: time
 * enough for anything it would fetch beside that picture to be asked for. Returns the page, the
 * requests that `counts` made meanwhile, and `release` to let the picture come.
 */
async function openWithLargestPaintHeld(
  path: string,
  rendered: string,
  counts: (request: Request) => boolean,
): Promise<{ page: Page; heldPath: string; requestedWhileHeld: string[]; release: () => void }> {
  const html = await (await fetch(`${baseUrl}${path}`)).text();
  const heldPath = html.match(/<link rel="preload" as="image" href="([^"]+)"/)?.[1];
  if (!heldPath) throw new Error(`${path} preloads no picture`);
  const page = await browser().newPage(PHONE);
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`${baseUrl}${heldPath}`, async (route) => {
    await held;
    await route.continue();
  });
  let holding = true;
  const requestedWhileHeld: string[] = [];
  page.on('request', (request) => {
    const requested = new URL(request.url()).pathname;
    if (holding && requested !== heldPath && counts(request)) requestedWhileHeld.push(requested);
  });
  await page.goto(`${baseUrl}${path}`, { waitUntil: 'commit' });
  await page.locator(rendered).first().waitFor({ state: 'attached', timeout: 60_000 });
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let frames = 5;
        const next = () => (--frames === 0 ? setTimeout(resolve, 0) : requestAnimationFrame(next));
        requestAnimationFrame(next);
      }),
  );
  return {
    page,
    heldPath,
    requestedWhileHeld,
    release: () => {
      holding = false;
      release();
    },
  };
}

/**
 * The size of every picture in `scope`, by its card and place in it (a live update may add or
 * remove a show meanwhile: only pictures in both are compared).
 */
const pictureBoxes = (page: Page, scope: string) =>
  page.evaluate(
    (selector) =>
      Object.fromEntries(
        [...document.querySelectorAll<HTMLElement>(selector)].map((element) => {
          const card = element.closest('[data-event-id]')?.getAttribute('data-event-id') ?? 'page';
          const inCard = [
            ...(element.closest('[data-event-id]') ?? document).querySelectorAll(element.tagName),
          ];
          const { width, height } = element.getBoundingClientRect();
          return [
            `${card}:${element.tagName}:${inCard.indexOf(element)}`,
            `${Math.round(width)}×${Math.round(height)}`,
          ];
        }),
      ),
    scope,
  );

/** The boxes of `before` that are still there `after`, with their sizes then. */
const sameKeys = (before: Record<string, string>, after: Record<string, string>) =>
  Object.fromEntries(
    Object.keys(before)
      .filter((key) => key in after)
      .map((key) => [key, after[key]]),
  );

describe('the largest paint on a phone', () => {
  it("shop page: fetches no picture below the fold, nor the search box's code, while its lead cover is on its way, and their boxes keep their sizes when they arrive", async () => {
    const { page, requestedWhileHeld, release } = await openWithLargestPaintHeld(
      '/',
      '.event-card__products img',
      (request) =>
        request.resourceType() === 'image' || /^\/assets\/show-search-/.test(new URL(request.url()).pathname),
    );
    // The search box's space is there meanwhile.
    expect(await page.locator('.show-search-pending').count()).toBe(1);
    const waitingBoxes = await pictureBoxes(page, '.shop-main img');
    release();
    // Then every picture comes, each lazy one once scrolled near.
    await page.waitForFunction(
      () => {
        const images = [...document.querySelectorAll<HTMLImageElement>('.shop-main img')];
        const waiting = images.find((image) => !image.getAttribute('src') || !image.complete);
        waiting?.scrollIntoView({ block: 'center' });
        return images.length > 5 && !waiting;
      },
      undefined,
      { timeout: 60_000, polling: 200 },
    );
    const logoPath = await page.evaluate(
      () =>
        new URL(document.querySelector<HTMLImageElement>('.shop-header__logo')?.src ?? '/', location.href)
          .pathname,
    );
    const loadedBoxes = await pictureBoxes(page, '.shop-main img');
    await page.getByRole('searchbox').waitFor({ timeout: 60_000 });
    await page.close();
    // The store's logo sits in the header, above the fold, and comes at once.
    expect(requestedWhileHeld.filter((path) => path !== logoPath)).toEqual([]);
    // Their boxes were kept while they waited: nothing moves when they arrive.
    expect(Object.keys(waitingBoxes).length).toBeGreaterThan(5);
    expect(sameKeys(waitingBoxes, loadedBoxes)).toEqual(sameKeys(loadedBoxes, waitingBoxes));
  });

  it("live show: asks for the chat and live interaction's code only once its first view is on screen", async () => {
    const page = await browser().newPage(PHONE);
    await page.goto(`${baseUrl}/widget/demo-store/demo-autumn-living`);
    const timing = await page.waitForFunction(
      () => {
        const [firstPaint] = performance.getEntriesByName('first-contentful-paint');
        const interaction = performance
          .getEntriesByType('resource')
          .find((entry) => /\/assets\/interaction-root-[^/]+\.js$/.test(entry.name));
        return (
          firstPaint && interaction && { firstPaint: firstPaint.startTime, requested: interaction.startTime }
        );
      },
      undefined,
      { timeout: 60_000, polling: 100 },
    );
    const { firstPaint, requested } = (await timing.jsonValue()) as { firstPaint: number; requested: number };
    // The chat comes all the same.
    await page.getByRole('button', { name: 'Comments' }).click({ timeout: 60_000 });
    await page.locator('.mobile-sheet .chat-composer').waitFor({ timeout: 60_000 });
    await page.close();
    expect(requested).toBeGreaterThanOrEqual(firstPaint);
  });

  it('clip page: shows the clip (in the page) on its poster, asks for its video once the poster is painted, then plays it in the same box', async () => {
    const { page, heldPath, requestedWhileHeld, release } = await openWithLargestPaintHeld(
      await firstClipPath(),
      'video[data-clip-video]',
      // The clip itself comes in the page (first answers): no call for it either.
      (request) =>
        request.resourceType() === 'media' ||
        /(\.mp4|\/functions\/clips\/get)$/.test(new URL(request.url()).pathname),
    );
    const waitingBox = await pictureBoxes(page, 'video[data-clip-video]');
    release();
    expect(heldPath).toMatch(/^\/clips\/[^/]+\/v\d+\.jpg$/);
    const poster = await page.locator('video[data-clip-video]').getAttribute('poster');
    expect(poster && new URL(poster, baseUrl).pathname).toBe(heldPath);
    await page.waitForFunction(
      () => {
        const video = document.querySelector<HTMLVideoElement>('video[data-clip-video]');
        return video !== null && video.readyState >= 2 && video.currentTime > 0.3;
      },
      undefined,
      { timeout: 60_000, polling: 200 },
    );
    const playingBox = await pictureBoxes(page, 'video[data-clip-video]');
    await page.close();
    expect(requestedWhileHeld).toEqual([]);
    expect(playingBox).toEqual(waitingBox);
  });
});

describe('DevTools issues', () => {
  for (const [name, { path, ready }] of Object.entries(PAGES)) {
    it(`reports none on the ${name} page once it has loaded`, async () => {
      const page = await browser().newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
      const cdp = await page.context().newCDPSession(page);
      const issues: string[] = [];
      cdp.on('Audits.issueAdded', ({ issue }) => issues.push(JSON.stringify(issue).slice(0, 500)));
      await cdp.send('Audits.enable');
      await page.goto(`${baseUrl}${await path()}`, { waitUntil: 'networkidle' });
      await page.locator(ready).first().waitFor({ timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      await page.close();
      expect(issues).toEqual([]);
    });
  }
});
