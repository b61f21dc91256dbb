import { type CheckoutOptions, StoreInfo, StoreSettings } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestStore,
  signInStaff,
  signInStoreStaff,
  type TestStaffMember as TestStaff,
} from '../../test-support/studio-staff.ts';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;

const STORE_A = 'settings-store-a';
const STORE_B = 'settings-store-b';

let app: TestApp;
let ownerA: TestStaff;
let hostA: TestStaff;
let moderatorA: TestStaff;
let ownerB: TestStaff;

beforeAll(async () => {
  app = await openTestApp();
  await createTestStore(app, STORE_A);
  await createTestStore(app, STORE_B);
  ({ owner: ownerA, host: hostA, moderator: moderatorA } = await signInStoreStaff(app, STORE_A));
  ownerB = await signInStaff(app, STORE_B, 'owner');
});

afterAll(async () => {
  await app?.close();
});

function settingsCall(
  staff: TestStaff,
  method: 'GET' | 'PUT' | 'DELETE',
  pageUid: string,
  section: string,
  payload?: unknown,
) {
  return app.server.inject({
    method,
    url: `/staff/stores/${pageUid}/settings${section ? `/${section}` : ''}`,
    headers: staff.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

const INFO = {
  name: 'Store A',
  description: 'Ceramics',
  cvr: 'DK11223344',
  address: {
    name: 'Store A ApS',
    street: 'Havnegade 1',
    postCode: '8000',
    city: 'Aarhus',
    email: 'hello@store-a.example',
    phone: '+45 11 22 33 44',
  },
  timeZone: 'Europe/Stockholm',
};

const SHIPPING = {
  methods: {
    home_delivery: { enabled: true, prices: { DKK: 5_900, EUR: 800 } },
    parcel_shop: { enabled: false, prices: { DKK: 3_900 } },
    store_pickup: { enabled: true, prices: { DKK: 0 } },
  },
  freeDeliveryOver: { DKK: 50_000 },
};

describe('store settings', () => {
  it('answers the defaults of a store that set nothing', async () => {
    const response = await settingsCall(ownerA, 'GET', STORE_A, '');
    expect(response.statusCode, response.body).toBe(200);
    const settings = StoreSettings.parse(response.json());
    expect(settings.player.primaryColor).toBe('#29323D');
    expect(settings.player.navigation).toBe('NEW_TAB');
    expect(settings.info.timeZone).toBe('Europe/Copenhagen');
    // A store that chose none sells in every language and currency, as before the choice existed.
    expect(settings.sales).toEqual({
      language: 'en',
      languages: ['en', 'da', 'sv', 'no', 'fi', 'nl', 'pl', 'de', 'es', 'fr', 'ko'],
      currency: 'DKK',
      currencies: ['DKK', 'SEK', 'NOK', 'PLN', 'EUR', 'GBP'],
    });
    expect(settings.shipping.methods.home_delivery).toEqual({
      enabled: true,
      prices: { DKK: 4_900, SEK: 6_900, NOK: 6_900, EUR: 695, PLN: 2_900, GBP: 595 },
    });
    expect(settings.pickupStores).toEqual([]);
  });

  it('lets a host change store info and terms; the storefront shows each store its own terms', async () => {
    const info = await settingsCall(hostA, 'PUT', STORE_A, 'info', INFO);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json().info).toEqual(INFO);
    const terms = await settingsCall(hostA, 'PUT', STORE_A, 'terms', { terms: 'Store A terms.' });
    expect(terms.statusCode, terms.body).toBe(200);
    expect(
      (await settingsCall(ownerB, 'PUT', STORE_B, 'terms', { terms: 'Store B terms.' })).statusCode,
    ).toBe(200);

    const read = async (pageUid: string) =>
      StoreInfo.parse(
        (
          await app.server.inject({
            method: 'POST',
            url: '/functions/customerpage/storeInfo',
            payload: { pageUid },
          })
        ).json(),
      );
    expect((await read(STORE_A)).terms).toBe('Store A terms.');
    expect((await read(STORE_A)).address.email).toBe('hello@store-a.example');
    expect((await read(STORE_B)).terms).toBe('Store B terms.');
    expect(await app.services.stores.timeZone(STORE_A)).toBe('Europe/Stockholm');
  });

  it('refuses bad store info with the field named', async () => {
    const cases: [object, RegExp][] = [
      [{ ...INFO, timeZone: 'Mars/Olympus' }, /timeZone.*time zone/],
      [{ ...INFO, name: '  ' }, /name.*empty/],
      [{ ...INFO, address: { ...INFO.address, email: 'not-an-address' } }, /email.*e-mail/],
      [{ ...INFO, colour: 'red' }, /colour/],
    ];
    for (const [body, message] of cases) {
      const response = await settingsCall(hostA, 'PUT', STORE_A, 'info', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });

  it('keeps player settings, storing only what differs from the default, and tells open players', async () => {
    const response = await settingsCall(hostA, 'PUT', STORE_A, 'player', {
      primaryColor: '#112233',
      hidePrices: true,
      navigation: 'NEW_TAB',
      minimizedHorizontalMargin: 40,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().player).toMatchObject({
      primaryColor: '#112233',
      secondaryColor: '#2490A8',
      hidePrices: true,
      minimizedHorizontalMargin: 40,
    });
    const read = await app.server.inject({
      method: 'POST',
      url: '/reads/playerSettings',
      payload: { pageUid: STORE_A },
    });
    expect(JSON.stringify(read.json())).toContain('#112233');
    const bad = await settingsCall(hostA, 'PUT', STORE_A, 'player', { primaryColor: 'red' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/primaryColor/);
  });

  it('keeps embedding origins as browsers send them and refuses what is not an origin', async () => {
    const response = await settingsCall(ownerA, 'PUT', STORE_A, 'embedding', {
      allowedOrigins: ['https://Shop.Example/', 'http://localhost:5173'],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().embedding.allowedOrigins).toEqual([
      'https://shop.example',
      'http://localhost:5173',
    ]);
    expect((await app.services.stores.pageSummary(STORE_A)).allowedOrigins).toEqual([
      'https://shop.example',
      'http://localhost:5173',
    ]);
    for (const origin of ['https://shop.example/path', 'javascript:alert(1)', 'shop.example']) {
      const bad = await settingsCall(ownerA, 'PUT', STORE_A, 'embedding', { allowedOrigins: [origin] });
      expect(bad.statusCode, origin).toBe(400);
      expect(bad.json().message).toMatch(/origin/);
    }
  });

  it('keeps languages and currencies sold, the main one among them', async () => {
    const response = await settingsCall(ownerA, 'PUT', STORE_A, 'sales', {
      language: 'da',
      languages: ['en', 'da'],
      currency: 'EUR',
      currencies: ['DKK', 'EUR'],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().sales).toEqual({
      language: 'da',
      languages: ['da', 'en'],
      currency: 'EUR',
      currencies: ['EUR', 'DKK'],
    });
    const bad = await settingsCall(ownerA, 'PUT', STORE_A, 'sales', {
      language: 'fr',
      languages: ['en'],
      currency: 'DKK',
      currencies: ['DKK'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/language.*languages sold/);
    await settingsCall(ownerA, 'PUT', STORE_A, 'sales', {
      language: 'en',
      languages: ['en'],
      currency: 'DKK',
      currencies: ['DKK'],
    });
  });

  it('prices shipping per store and currency; checkout offers what the store set', async () => {
    const response = await settingsCall(ownerA, 'PUT', STORE_A, 'shipping', SHIPPING);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().shipping).toEqual(SHIPPING);
    const { deliveryTerms } = await import('./store-service.ts');
    expect(await deliveryTerms(app.db, STORE_A, 'DKK')).toEqual({
      freight: { home_delivery: 5_900, store_pickup: 0 },
      freeOver: 50_000,
    });
    expect(await deliveryTerms(app.db, STORE_A, 'EUR')).toEqual({
      freight: { home_delivery: 800 },
      freeOver: null,
    });
    // Another store keeps the default offer.
    expect((await deliveryTerms(app.db, STORE_B, 'DKK')).freight).toEqual({
      home_delivery: 4_900,
      parcel_shop: 3_900,
      store_pickup: 0,
    });
    const none = await settingsCall(ownerA, 'PUT', STORE_A, 'shipping', {
      ...SHIPPING,
      methods: Object.fromEntries(
        Object.entries(SHIPPING.methods).map(([kind, method]) => [kind, { ...method, enabled: false }]),
      ),
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/at least one shipping method/);
    const negative = await settingsCall(ownerA, 'PUT', STORE_A, 'shipping', {
      ...SHIPPING,
      freeDeliveryOver: { DKK: -1 },
    });
    expect(negative.statusCode).toBe(400);
  });

  it('lists pickup stores with opening hours, keeping their uids across edits', async () => {
    const response = await settingsCall(ownerA, 'PUT', STORE_A, 'pickup-stores', {
      pickupStores: [
        {
          name: 'Aarhus shop',
          street: 'Havnegade 1',
          postCode: '8000',
          city: 'Aarhus',
          openingHours: 'Mon-Fri 10-18',
        },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const [first] = StoreSettings.parse(response.json()).pickupStores;
    expect(first?.uid).toMatch(/pickup/);
    const second = await settingsCall(ownerA, 'PUT', STORE_A, 'pickup-stores', {
      pickupStores: [
        { ...first, openingHours: 'Mon-Sat 10-18' },
        { name: 'Odense shop', street: 'Vestergade 2', postCode: '5000', city: 'Odense', openingHours: '' },
      ],
    });
    const stores = StoreSettings.parse(second.json()).pickupStores;
    expect(stores[0]).toEqual({ ...first, openingHours: 'Mon-Sat 10-18' });
    expect(stores[1]?.uid).not.toBe(first?.uid);
    const { pickupLocations } = await import('../checkout/shipping.ts');
    const locations: CheckoutOptions['pickupLocations'] = pickupLocations(
      await app.services.stores.pickupStores(STORE_A),
    );
    expect(locations.map((location) => location.name)).toEqual(['Aarhus shop', 'Odense shop']);
    const bad = await settingsCall(ownerA, 'PUT', STORE_A, 'pickup-stores', {
      pickupStores: [{ name: '', street: '', postCode: '', city: '', openingHours: '' }],
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('store logo', () => {
  it('stores an uploaded image as the logo, refuses what is not one, and removes it', async () => {
    const sharp = (await import('sharp')).default;
    const png = await sharp({
      create: { width: 300, height: 120, channels: 3, background: { r: 200, g: 40, b: 90 } },
    })
      .png()
      .toBuffer();
    const upload = await app.server.inject({
      method: 'PUT',
      url: `/staff/stores/${STORE_A}/settings/logo`,
      headers: { ...hostA.headers, 'content-type': 'image/png' },
      payload: png,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const logo = upload.json().logo as string;
    expect(logo).toMatch(new RegExp(`^/media/${STORE_A}/`));
    expect((await app.server.inject({ method: 'GET', url: logo })).statusCode).toBe(200);

    const notAnImage = await app.server.inject({
      method: 'PUT',
      url: `/staff/stores/${STORE_A}/settings/logo`,
      headers: { ...hostA.headers, 'content-type': 'image/png' },
      payload: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    expect(notAnImage.statusCode).toBeGreaterThanOrEqual(400);
    expect(notAnImage.statusCode).toBeLessThan(500);
    expect((await settingsCall(hostA, 'GET', STORE_A, '')).json().logo).toBe(logo);

    const removed = await settingsCall(hostA, 'DELETE', STORE_A, 'logo');
    expect(removed.statusCode).toBe(200);
    expect(removed.json().logo).toBeNull();
  });
});

describe('store settings roles and stores', () => {
  const ownerOnly: [string, object][] = [
    ['embedding', { allowedOrigins: [] }],
    ['sales', { language: 'en', languages: ['en'], currency: 'DKK', currencies: ['DKK'] }],
    ['shipping', SHIPPING],
    ['pickup-stores', { pickupStores: [] }],
  ];
  const hostOrOwner: [string, object][] = [
    ['info', INFO],
    ['terms', { terms: '' }],
    ['player', {}],
  ];

  it('refuses hosts what touches money or embedding', async () => {
    for (const [section, body] of ownerOnly) {
      const response = await settingsCall(hostA, 'PUT', STORE_A, section, body);
      expect(response.statusCode, section).toBe(403);
    }
  });

  it('neither shows a host the sales, shipping, pickup and embedding settings nor answers them to one (README: hosts do not handle payment settings)', async () => {
    const asOwner = (await settingsCall(ownerA, 'GET', STORE_A, '')).json();
    expect(asOwner.sales).not.toBeNull();
    expect(asOwner.shipping).not.toBeNull();
    const read = await settingsCall(hostA, 'GET', STORE_A, '');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      info: asOwner.info,
      embedding: null,
      sales: null,
      shipping: null,
      pickupStores: null,
    });
    // A host's own change answers the settings without them too.
    const changed = await settingsCall(hostA, 'PUT', STORE_A, 'terms', { terms: asOwner.terms });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      sales: null,
      shipping: null,
      pickupStores: null,
      embedding: null,
    });
  });

  it('refuses moderators every settings call', async () => {
    expect((await settingsCall(moderatorA, 'GET', STORE_A, '')).statusCode).toBe(403);
    for (const [section, body] of [...ownerOnly, ...hostOrOwner]) {
      const response = await settingsCall(moderatorA, 'PUT', STORE_A, section, body);
      expect(response.statusCode, section).toBe(403);
    }
    expect((await settingsCall(moderatorA, 'DELETE', STORE_A, 'logo')).statusCode).toBe(403);
  });

  it("refuses store B's owner every call on store A, and changes nothing there", async () => {
    const before = (await settingsCall(ownerA, 'GET', STORE_A, '')).json();
    expect((await settingsCall(ownerB, 'GET', STORE_A, '')).statusCode).toBe(403);
    for (const [section, body] of [...ownerOnly, ...hostOrOwner]) {
      const response = await settingsCall(ownerB, 'PUT', STORE_A, section, body);
      expect(response.statusCode, section).toBe(403);
    }
    expect((await settingsCall(ownerB, 'DELETE', STORE_A, 'logo')).statusCode).toBe(403);
    expect((await settingsCall(ownerA, 'GET', STORE_A, '')).json()).toEqual(before);
  });

  it('answers 404 for an unknown store to the admin key', async () => {
    const response = await app.server.inject({
      method: 'GET',
      url: '/staff/stores/no-such-store/settings',
      headers: adminHeaders,
    });
    expect(response.statusCode).toBe(404);
  });

  it('writes every change to the audit log with who made it', async () => {
    const change = await settingsCall(hostA, 'PUT', STORE_A, 'terms', { terms: 'Audited terms.' });
    expect(change.statusCode, change.body).toBe(200);
    const response = await app.server.inject({
      method: 'GET',
      url: `/staff/stores/${STORE_A}/audit?limit=5`,
      headers: ownerA.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const [latest] = response.json().entries;
    expect(latest).toMatchObject({ action: 'putStoreTerms', actorUid: hostA.userUid });
    const otherStore = await app.server.inject({
      method: 'GET',
      url: `/staff/stores/${STORE_B}/audit`,
      headers: ownerB.headers,
    });
    expect(otherStore.json().entries.map((entry: { action: string }) => entry.action)).not.toContain(
      'putStoreInfo',
    );
  });
});
