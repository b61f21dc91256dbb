import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DELIVERY_COUNTRIES, EventProduct, ShopEvents, StoreInfo, type StudioClip } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_MEDIA_DIR } from '../../app.ts';
import { openTestApp, TEST_ADMIN_KEY } from '../../test-support/test-app.ts';
import { pickupLocations, shippingMethods } from '../checkout/shipping.ts';
import { deliveryTerms, freeDeliveryThreshold } from '../stores/store-service.ts';
import {
  DEMO_PAGE_UID,
  DEMO_REPLAY_EVENT_ID,
  DEMO_VIDEO_MS,
  demoSeedRequests,
  seedDemoStoreIfEmpty,
} from './seed-demo.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;

const MEDIA_PREFIX = '/demo-media/';

let app: TestApp;

async function read<T extends z.ZodType>(name: string, params: object, schema: T): Promise<z.infer<T>> {
  const response = await app.server.inject({ method: 'POST', url: `/reads/${name}`, payload: params });
  expect(response.statusCode, response.body).toBe(200);
  return schema.parse(response.json());
}

const shopEvents = () => read('liveEvents.shop', { pageUid: 'demo-store' }, ShopEvents);

const eventProducts = (eventId: string) => read('liveEventProducts', { eventId }, z.array(EventProduct));

async function storeInfo(): Promise<StoreInfo> {
  const response = await app.server.inject({
    method: 'POST',
    url: '/functions/customerpage/storeInfo',
    payload: { pageUid: 'demo-store' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return StoreInfo.parse(response.json());
}

/** Every site path under /demo-media/ anywhere in a JSON-like value. */
function mediaPaths(value: unknown): string[] {
  if (typeof value === 'string') return value.startsWith(MEDIA_PREFIX) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(mediaPaths);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(mediaPaths);
  return [];
}

/** Everything the seed made visible through the public reads, for before/after comparisons. */
async function snapshot() {
  const events = await shopEvents();
  const all = [...events.live, ...events.planned, ...events.vod];
  const products = await Promise.all(all.map((event) => eventProducts(event.id)));
  return { events, products, pages: await app.services.stores.pageCount() };
}

beforeAll(async () => {
  app = await openTestApp();
});

afterAll(async () => {
  await app?.close();
});

describe('seedDemoStoreIfEmpty', () => {
  it('seeds an empty database with one live, one planned and one vod event, each with products', async () => {
    expect(await app.services.stores.pageCount()).toBe(0);
    expect(await seedDemoStoreIfEmpty(app, TEST_ADMIN_KEY, Date.now())).toBe('demo-store');

    const events = await shopEvents();
    expect(events.live.map((event) => event.event.eventName)).toEqual(['Autumn living — live now']);
    expect(events.planned.map((event) => event.event.eventName)).toEqual(['Winter textiles preview']);
    expect(events.vod.map((event) => event.event.eventName)).toEqual(['Kitchen favourites']);
    for (const event of [...events.live, ...events.planned, ...events.vod]) {
      expect(event.shopSummary.productCount, event.id).toBeGreaterThan(0);
    }
  });

  it('cues the live and vod products on the segments of the demo show', async () => {
    const events = await shopEvents();
    for (const event of [...events.live, ...events.vod]) {
      const liveStart = event.event.liveStartTime;
      expect(liveStart, event.id).not.toBeNull();
      const all = await eventProducts(event.id);
      const products = all.filter((p) => p.relativeCues.length > 0);
      expect(products.map((p) => p.product.name)).toEqual(['Linen shirt', 'Ceramic mug', 'Wool scarf']);
      // Anything else the show lists is presented off camera, without cues.
      expect(all.filter((p) => p.relativeCues.length === 0 && p.cues.length > 0)).toEqual([]);
      products.forEach((p, index) => {
        const start = (index + 1) * 15_000;
        expect(p.sorting).toBe(index);
        expect(p.relativeCues).toEqual([{ presentationTime: start, presentationEndTime: start + 15_000 }]);
        expect(p.cues).toEqual([
          {
            source: 'control-center',
            presentationStartTimestamp: (liveStart ?? 0) + start,
            presentationEndTimestamp: (liveStart ?? 0) + start + 15_000,
            deleted: false,
          },
        ]);
      });
    }
  });

  it('has stock data for the "Only 1 left" and "Only a few left" signals', async () => {
    const [live] = (await shopEvents()).live;
    const products = await eventProducts(live?.id ?? '');
    const stocks = products.flatMap((p) => p.product.variants.map((variant) => variant.stock));
    expect(stocks).toContain(1);
    expect(stocks).toContain(3);
  });

  it('does nothing when a store already exists', async () => {
    const before = await snapshot();
    expect(await seedDemoStoreIfEmpty(app, TEST_ADMIN_KEY, Date.now() + 60_000)).toBeNull();
    expect(await snapshot()).toEqual(before);
    expect(before.pages).toBe(1);
  });

  it('serves the store name and logo', async () => {
    const info = await storeInfo();
    expect(info.name).toBe('Nordlys Living');
    expect(info.logo).toBe('/demo-media/logo.svg');
    expect(Object.keys(info.storefront.cards).length).toBeGreaterThanOrEqual(2);
  });

  it('references only media that exists under apps/server/demo/media', async () => {
    const requested = mediaPaths(demoSeedRequests(Date.now()).map((request) => request.payload));
    const { events, products } = await snapshot();
    const served = mediaPaths([await storeInfo(), events, products]);
    // What the reads hand out is what the seed put in, so checking the requests covers both.
    expect(requested).toEqual(expect.arrayContaining(served));
    expect(served.length).toBeGreaterThan(10);
    for (const path of new Set(requested)) {
      expect(existsSync(join(DEMO_MEDIA_DIR, path.slice(MEDIA_PREFIX.length))), path).toBe(true);
    }
  });

  it('gives the recorded show the length of its video, 1:00 (issue 13 §9)', async () => {
    const [vod] = (await shopEvents()).vod;
    const { liveStartTime, liveEndTime } = vod?.event ?? { liveStartTime: null, liveEndTime: null };
    expect((liveEndTime ?? 0) - (liveStartTime ?? 0)).toBe(DEMO_VIDEO_MS);
    // …which is the video's own length, as ffprobe reads it from the file.
    const probed = execFileSync(
      'ffprobe',
      [
        '-v',
        'error',
        '-show_entries',
        'format=duration',
        '-of',
        'csv=p=0',
        join(DEMO_MEDIA_DIR, 'demo-show.mp4'),
      ],
      { encoding: 'utf8' },
    );
    expect(Math.abs(Number(probed) * 1000 - DEMO_VIDEO_MS)).toBeLessThan(50);
  });

  it('has a clip of each product presented in its ended show, cut from the replay video (issue 32)', async () => {
    const listed = await app.services.clips.sitemapClips(50);
    const clips = await Promise.all(
      listed.map(({ pageUid, clipUid }) => app.services.clips.publicClip(pageUid, clipUid)),
    );
    const cued = (await eventProducts(DEMO_REPLAY_EVENT_ID)).filter((product) => product.cues.length > 0);
    expect(cued.length).toBeGreaterThan(1);
    expect(clips.map((clip) => clip.product?.uid).sort()).toEqual(cued.map((product) => product.uid).sort());
    for (const clip of clips) {
      expect(clip.eventId).toBe(DEMO_REPLAY_EVENT_ID);
      const file = await app.server.inject({ method: 'GET', url: clip.videoUrl });
      expect(file.statusCode, clip.videoUrl).toBe(200);
      expect(file.headers['content-type']).toBe('video/mp4');
      // A real MP4 of the clip's length (a chapter of the demo video, 15 s), as ffprobe reads it.
      const saved = join(mkdtempSync(join(tmpdir(), 'vitrine-demo-clip-')), 'clip.mp4');
      writeFileSync(saved, file.rawPayload);
      const probed = execFileSync(
        'ffprobe',
        ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', saved],
        { encoding: 'utf8' },
      );
      rmSync(saved);
      expect(Math.abs(Number(probed) - clip.durationSeconds)).toBeLessThan(2.1);
      expect(clip.durationSeconds).toBeGreaterThanOrEqual(10);
    }
  });

  it("trims a demo clip in the studio: it is cut again from the replay's video, which has no HLS recording", async () => {
    const { clips } = await app.services.clips.list(DEMO_PAGE_UID, DEMO_REPLAY_EVENT_ID);
    const clip = clips.find((candidate) => candidate.kind === 'chapter' && candidate.state === 'ready');
    if (!clip) throw new Error('the demo replay has no clip');
    // The studio's call, with the admin key as the store's owner.
    const response = await app.server.inject({
      method: 'POST',
      url: `/staff/stores/${DEMO_PAGE_UID}/shows/${DEMO_REPLAY_EVENT_ID}/clips/${clip.uid}/trim`,
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      payload: { startOffsetMs: 1000, endOffsetMs: 9000 },
    });
    expect(response.statusCode, response.body).toBe(200);
    const trimmed = response.json() as StudioClip;
    expect(trimmed.error).toBeNull();
    expect(trimmed.state).toBe('ready');
    expect(trimmed.durationSeconds).toBe(8);
    expect(trimmed.videoUrl).not.toBe(clip.videoUrl);
    const file = await app.server.inject({ method: 'GET', url: trimmed.videoUrl ?? '' });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.length).toBeGreaterThan(10_000);
  });

  it('promises in its terms only what the checkout does (issue 13 §9)', async () => {
    const { terms, storefront } = await storeInfo();
    const claims = [
      terms,
      ...Object.values(storefront.cards).flatMap((card) => [card.title, card.text]),
    ].join('\n');
    // No card brands, wallet or e-mail confirmation the demo does not have.
    expect(claims).not.toMatch(/Visa|Mastercard|MobilePay|confirmed it by e-mail/i);
    expect(terms).toContain('We do not send order confirmations by e-mail.');
    expect(terms).toContain('test card');
    const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const country of DELIVERY_COUNTRIES) {
      expect(terms, country).toContain(countryNames.of(country) ?? country);
    }
    const dkk = Object.fromEntries(
      shippingMethods('DKK', await deliveryTerms(app.db, 'demo-store', 'DKK')).map((method) => [
        method.kind,
        method.price / 100,
      ]),
    );
    expect(terms).toContain(`Home delivery costs ${dkk.home_delivery} kr`);
    expect(terms).toContain(`parcel shop ${dkk.parcel_shop} kr`);
    expect(dkk.store_pickup).toBe(0);
    // The free delivery the terms and the delivery card promise is the store's setting, applied by the server.
    expect(terms).toContain('both free on orders of 999 kr or more');
    expect(storefront.cards.delivery?.title).toBe('Free delivery from 999 kr');
    expect(await freeDeliveryThreshold(app.db, 'demo-store', 'DKK')).toBe(99_900);
    for (const currency of ['SEK', 'NOK', 'EUR', 'PLN', 'GBP'] as const) {
      expect(await freeDeliveryThreshold(app.db, 'demo-store', currency), currency).not.toBeNull();
    }
  });

  it('offers its studio as pickup location by shop name and street, not the company name twice (issue 13 §9)', async () => {
    expect(pickupLocations(await app.services.stores.pickupStores('demo-store'))).toEqual([
      {
        uid: 'demo-store-store',
        name: 'Nordlys Living',
        address: 'Mejlgade 12',
        postCode: '8000',
        city: 'Aarhus C',
        openingHours: 'Thursday to Saturday, 10-17',
      },
    ]);
  });

  it('serves the demo show as video/mp4', async () => {
    const response = await app.server.inject({ method: 'GET', url: '/demo-media/demo-show.mp4' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^video\/mp4/);
    expect(response.rawPayload.length).toBeGreaterThan(100_000);
  });
});
