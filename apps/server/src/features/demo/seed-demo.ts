import {
  type CampaignInput,
  callPath,
  type EventProductInput,
  type LiveEventInput,
  type PageInput,
  type PriceList,
  type ProductInput,
} from '@vitrine/protocol';
import type { z } from 'zod';
import type { App } from '../../app.ts';
import type { ScriptedAppearance } from './demo-cue-script.ts';

export const DEMO_PAGE_UID = 'demo-store';
/** The demo's live show: a real stream on `npm start` when ffmpeg is present (demo-live-show.ts). */
export const DEMO_LIVE_EVENT_ID = 'demo-autumn-living';
/** The demo's ended show: its replay plays demo-show.mp4, and its clips are cut from it. */
export const DEMO_REPLAY_EVENT_ID = 'demo-kitchen-favourites';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Offsets into demo-show.mp4 where each product segment starts; each lasts 15 s. */
const SEGMENT_MS = 15_000;

/** Length of demo-show.mp4 (1:00): the recorded show lasts exactly as long as its video. */
export const DEMO_VIDEO_MS = 60_000;

/** Where apps/server/demo/media is served (see buildApp). */
const media = (file: string) => `/demo-media/${file}`;

type PageBody = z.input<typeof PageInput>;
type ProductBody = z.input<typeof ProductInput>;
type CampaignBody = z.input<typeof CampaignInput>;
type EventBody = z.input<typeof LiveEventInput>;
type EventProductBody = z.input<typeof EventProductInput>;

/** One admin API write of the seed, in the order they must be made. */
export interface DemoSeedRequest {
  url: string;
  payload: PageBody | ProductBody | CampaignBody | EventBody | EventProductBody;
}

const PAGE: PageBody = {
  name: 'Nordlys Living',
  description:
    'Nordlys Living is a small Aarhus homeware studio. We make and curate linen, wool, stoneware and oak for ' +
    'calm Nordic homes, and we present new collections live every month.',
  address: {
    name: 'Nordlys Living ApS',
    street: 'Mejlgade 12',
    postCode: '8000',
    city: 'Aarhus C',
    email: 'hello@nordlys.example',
    phone: '+45 86 12 34 56',
  },
  cvr: '12345678',
  // Every promise here is one the demo keeps: the countries are the checkout's delivery countries,
  // the delivery prices its freight (shipping.ts), the payment its built-in test card; no e-mail is sent.
  terms: [
    'These terms apply to all purchases from Nordlys Living ApS, CVR 12345678, Mejlgade 12, 8000 Aarhus C. ' +
      'Prices include Danish VAT. Your order is binding once you have paid for it; the confirmation page ' +
      'shows your order and what you paid. We do not send order confirmations by e-mail.',
    'We ship to Denmark, Sweden, Norway, Finland, Poland, Germany, the Netherlands, Spain, France and the ' +
      'United Kingdom. Home delivery costs 49 kr and delivery to a parcel shop 39 kr, both free on orders ' +
      'of 999 kr or more (in your own currency, the checkout shows the prices and the limit); picking your ' +
      'order up at our Aarhus studio is free. Orders placed before 14:00 on weekdays leave our studio the ' +
      'same day.',
    'The law gives you 14 days to cancel a purchase; we give you 30 days from the day you receive it. Return ' +
      'the items unused and in their original packaging, and we refund the purchase price, including the ' +
      'original delivery cost, within 14 days of receiving the return.',
    'This is a demonstration store: the only payment method is a test card, and no money is ever charged.',
    'Complaints can be sent to hello@nordlys.example. You may also complain to the Danish Centre for Complaint ' +
      'Resolution or through the EU online dispute resolution platform.',
  ].join('\n\n'),
  logo: media('logo.svg'),
  storefront: {
    frontpageText:
      'Slow living, shown live. Join our monthly shows to see new linen, wool and stoneware up close, ask ' +
      'questions in the chat and shop straight from the video.',
    cards: {
      delivery: {
        title: 'Free delivery from 999 kr',
        text: 'Orders placed before 14:00 on weekdays leave our Aarhus studio the same day.',
        image: null,
      },
      returns: {
        title: '30 days to change your mind',
        text: 'Not quite right at home? Send it back unused within 30 days for a full refund.',
        image: null,
      },
      showroom: {
        title: 'Visit the studio',
        text: 'Mejlgade 12, Aarhus C. Open Thursday to Saturday, 10-17.',
        image: media('product-stoneware-vase.jpg'),
      },
    },
  },
  language: 'en',
  currency: 'DKK',
  playerSettings: {},
  // What the terms and the delivery card promise: free delivery from 999 kr, set per market.
  freeDeliveryOver: prices(99_900, 139_900, 139_900, 13_395, 59_900, 11_495),
  timeZone: 'Europe/Copenhagen',
  // The freight the terms state, editable in the studio's shipping settings.
  shippingMethods: {
    home_delivery: { enabled: true, prices: prices(4_900, 6_900, 6_900, 695, 2_900, 595) },
    parcel_shop: { enabled: true, prices: prices(3_900, 4_900, 4_900, 495, 1_900, 395) },
    store_pickup: { enabled: true, prices: prices(0, 0, 0, 0, 0, 0) },
  },
  pickupStores: [
    {
      uid: 'demo-store-store',
      name: 'Nordlys Living',
      street: 'Mejlgade 12',
      postCode: '8000',
      city: 'Aarhus C',
      openingHours: 'Thursday to Saturday, 10-17',
    },
  ],
};

/** Prices per market in minor units, set per product rather than converted, as shops do. */
function prices(dkk: number, sek: number, nok: number, eur: number, pln: number, gbp: number): PriceList {
  return { DKK: dkk, SEK: sek, NOK: nok, EUR: eur, PLN: pln, GBP: gbp };
}

const SHIRT_PRICES = prices(54_900, 79_900, 79_900, 7_395, 33_900, 6_395);
const SCARF_PRICES = prices(39_900, 59_900, 59_900, 5_395, 24_900, 4_495);
const SMALL_BOARD_PRICES = prices(44_900, 64_900, 64_900, 5_995, 27_900, 4_995);
const LARGE_BOARD_PRICES = prices(59_900, 84_900, 84_900, 7_995, 36_900, 6_495);

interface DemoProduct {
  uid: string;
  body: ProductBody;
}

function product(slug: string, body: Omit<ProductBody, 'externalId' | 'url' | 'images'>): DemoProduct {
  const variants = body.variants ?? [];
  return {
    uid: `nordlys-${slug}`,
    body: {
      externalId: `NL-${slug}`,
      url: `https://nordlys.example/products/${slug}`,
      images: [media(`product-${slug}.jpg`)],
      ...body,
      // A product with variants is stocked through them; its own stock is their sum so the two never disagree.
      stock: variants.length
        ? variants.reduce((sum, variant) => sum + (variant.stock ?? 0), 0)
        : (body.stock ?? null),
    },
  };
}

type VariantBody = NonNullable<ProductBody['variants']>[number];

/** A shirt variant per colour and size, named and SKU'd the way the shop does it. */
function shirtVariant(colour: 'sand' | 'sage', size: 's' | 'm' | 'l', stock: number): VariantBody {
  const colourName = colour === 'sand' ? 'Sand' : 'Sage';
  return {
    uid: `nordlys-linen-shirt-${colour}-${size}`,
    name: `${colourName} / ${size.toUpperCase()}`,
    sku: `NL-LS-${colour.toUpperCase()}-${size.toUpperCase()}`,
    prices: SHIRT_PRICES,
    stock,
    options: [
      { optionId: 'colour', optionValueId: colour },
      { optionId: 'size', optionValueId: size },
    ],
  };
}

/** A scarf variant per colour. */
function scarfVariant(colour: 'rust' | 'charcoal' | 'oat', name: string, stock: number): VariantBody {
  return {
    uid: `nordlys-wool-scarf-${colour}`,
    name,
    sku: `NL-WS-${colour.toUpperCase()}`,
    prices: SCARF_PRICES,
    stock,
    options: [{ optionId: 'colour', optionValueId: colour }],
  };
}

const LINEN_SHIRT = product('linen-shirt', {
  name: 'Linen shirt',
  description:
    'A relaxed shirt in washed European linen that gets softer with every wash. Mother-of-pearl buttons, ' +
    'a single chest pocket and a straight hem to wear in or out.',
  sku: 'NL-LS',
  prices: SHIRT_PRICES,
  options: [
    {
      id: 'colour',
      optionType: 'color',
      name: 'Colour',
      optionValues: [
        { id: 'sand', name: 'Sand' },
        { id: 'sage', name: 'Sage' },
      ],
    },
    {
      id: 'size',
      optionType: 'size',
      name: 'Size',
      optionValues: [
        { id: 's', name: 'S' },
        { id: 'm', name: 'M' },
        { id: 'l', name: 'L' },
      ],
    },
  ],
  variants: [
    shirtVariant('sand', 's', 6),
    // The last one in stock, so the "Only 1 left" signal has data.
    shirtVariant('sand', 'm', 1),
    shirtVariant('sand', 'l', 8),
    shirtVariant('sage', 's', 5),
    shirtVariant('sage', 'm', 9),
    // Sold out, for the sold-out product feedback.
    shirtVariant('sage', 'l', 0),
  ],
});

const CERAMIC_MUG = product('ceramic-mug', {
  name: 'Ceramic mug',
  description:
    'Wheel-thrown stoneware mug with a terracotta body and a cream glaze that runs a little differently on ' +
    'each one. Holds 350 ml; dishwasher safe.',
  sku: 'NL-CM',
  prices: prices(17_900, 26_900, 26_900, 2_395, 10_900, 1_995),
  // Many browser tests buy mugs on one demo server (the shopper-language journeys alone, a dozen).
  stock: 400,
});

const WOOL_SCARF = product('wool-scarf', {
  name: 'Wool scarf',
  description:
    'A generous scarf woven from soft lambswool in Jutland, with cream stripes and a knotted fringe. ' +
    '200 x 35 cm.',
  sku: 'NL-WS',
  prices: SCARF_PRICES,
  options: [
    {
      id: 'colour',
      optionType: 'color',
      name: 'Colour',
      optionValues: [
        { id: 'rust', name: 'Rust' },
        { id: 'charcoal', name: 'Charcoal' },
        { id: 'oat', name: 'Oat' },
      ],
    },
  ],
  variants: [
    scarfVariant('rust', 'Rust', 14),
    // A few left, so the "Only a few left" signal has data.
    scarfVariant('charcoal', 'Charcoal', 3),
    scarfVariant('oat', 'Oat', 11),
  ],
});

const OAK_BOARD = product('oak-board', {
  name: 'Oak serving board',
  description:
    'Cut from a single piece of FSC-certified Danish oak and finished with food-safe oil. Made for bread, ' +
    'cheese and long dinners.',
  sku: 'NL-OB',
  prices: SMALL_BOARD_PRICES,
  options: [
    {
      id: 'size',
      optionType: 'size',
      name: 'Size',
      optionValues: [
        { id: 'small', name: 'Small, 30 x 20 cm' },
        { id: 'large', name: 'Large, 45 x 28 cm' },
      ],
    },
  ],
  variants: [
    {
      uid: 'nordlys-oak-board-small',
      name: 'Small',
      sku: 'NL-OB-S',
      prices: SMALL_BOARD_PRICES,
      stock: 15,
      options: [{ optionId: 'size', optionValueId: 'small' }],
    },
    {
      uid: 'nordlys-oak-board-large',
      name: 'Large',
      sku: 'NL-OB-L',
      prices: LARGE_BOARD_PRICES,
      stock: 9,
      options: [{ optionId: 'size', optionValueId: 'large' }],
    },
  ],
});

const STONEWARE_VASE = product('stoneware-vase', {
  name: 'Stoneware vase',
  description:
    'A round-bellied vase in speckled sage stoneware, glazed inside so it holds water. Beautiful with dried ' +
    'grasses or a single branch. Height 24 cm.',
  sku: 'NL-SV',
  prices: prices(34_900, 52_900, 52_900, 4_695, 19_900, 3_995),
  stock: 7,
});

const BEESWAX_CANDLES = product('beeswax-candles', {
  name: 'Beeswax candles',
  description:
    'Three hand-dipped candles of pure Danish beeswax with cotton wicks. They burn slowly, clean and with a ' +
    'faint scent of honey. Set of three, 25 cm.',
  sku: 'NL-BC',
  prices: prices(12_900, 18_900, 18_900, 1_745, 7_900, 1_495),
  stock: 60,
});

const PRODUCTS = [LINEN_SHIRT, CERAMIC_MUG, WOOL_SCARF, OAK_BOARD, STONEWARE_VASE, BEESWAX_CANDLES];

/** The products shown in demo-show.mp4, in the order of its 15 s segments after the welcome. */
const SHOW_LINEUP = [LINEN_SHIRT, CERAMIC_MUG, WOOL_SCARF];

/**
 * Where demo-show.mp4 shows each product (ms into the video): the live show's script, followed on
 * every loop when an encoder streams it (demo-live-show.ts).
 */
export const DEMO_SHOW_SCRIPT: readonly ScriptedAppearance[] = SHOW_LINEUP.map((shown, index) => ({
  productUid: shown.uid,
  startMs: (index + 1) * SEGMENT_MS,
  endMs: (index + 2) * SEGMENT_MS,
}));

/** 19:00 UTC on the UTC day after `now`: always at least 19 hours ahead. */
function tomorrowEvening(now: number): number {
  const today = new Date(now);
  return Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1, 19);
}

/** The show's products with cues on the video's segments, for an event whose video starts at `videoStart`. */
function cuedShowProducts(videoStart: number): EventProductBody[] {
  return SHOW_LINEUP.map((shown, index) => {
    const start = (index + 1) * SEGMENT_MS;
    const end = start + SEGMENT_MS;
    return {
      productUid: shown.uid,
      sorting: index,
      relativeCues: [{ presentationTime: start, presentationEndTime: end }],
      cues: [
        {
          source: 'control-center',
          presentationStartTimestamp: videoStart + start,
          presentationEndTimestamp: videoStart + end,
        },
      ],
    };
  });
}

interface DemoEvent {
  id: string;
  campaignUid: string;
  campaign: CampaignBody;
  event: Omit<EventBody, 'pageUid' | 'campaignId'>;
  products: EventProductBody[];
}

function demoEvents(now: number): DemoEvent[] {
  const liveStart = now - 10 * MINUTE;
  const plannedStart = tomorrowEvening(now);
  const vodStart = now - 3 * DAY;
  // The mp4 begins exactly at the live start, with no camera or CDN in between, so the cues
  // line up with the video's clock only without the default delays.
  const recorded = { cdnMp4VideoUrl: media('demo-show.mp4'), broadcastDelayMs: 0, cdnDelayMs: 0 };
  const vertical = (picture: string) => ({ width: 540, height: 960, picture: media(picture) });
  return [
    {
      id: DEMO_LIVE_EVENT_ID,
      campaignUid: DEMO_LIVE_EVENT_ID,
      campaign: { name: 'Autumn living', deadline: now + 7 * DAY },
      event: {
        status: 'public',
        currentStatus: 'live',
        eventName: 'Autumn living — live now',
        eventStartTimestamp: liveStart,
        liveStartTime: liveStart,
        cdn: 'vitrine',
        cdnVideoStartTime: liveStart,
        liveVideoFormat: vertical('cover-live.jpg'),
        coverPhotoPath: media('cover-live.jpg'),
        ...recorded,
      },
      products: cuedShowProducts(liveStart),
    },
    {
      id: 'demo-winter-textiles',
      campaignUid: 'demo-winter-textiles',
      campaign: { name: 'Winter textiles preview', deadline: plannedStart + 7 * DAY },
      event: {
        status: 'public',
        currentStatus: 'planned',
        eventName: 'Winter textiles preview',
        eventStartTimestamp: plannedStart,
        cdn: 'vitrine',
        liveVideoFormat: vertical('cover-planned.jpg'),
        coverPhotoPath: media('cover-planned.jpg'),
      },
      products: [WOOL_SCARF, LINEN_SHIRT, BEESWAX_CANDLES, STONEWARE_VASE].map((shown, index) => ({
        productUid: shown.uid,
        sorting: index,
      })),
    },
    {
      id: DEMO_REPLAY_EVENT_ID,
      campaignUid: DEMO_REPLAY_EVENT_ID,
      campaign: { name: 'Kitchen favourites', deadline: now + 30 * DAY },
      event: {
        status: 'public',
        currentStatus: 'vod',
        eventName: 'Kitchen favourites',
        eventStartTimestamp: vodStart,
        liveStartTime: vodStart,
        liveEndTime: vodStart + DEMO_VIDEO_MS,
        cdn: 'vitrine',
        cdnVideoStartTime: vodStart,
        liveVideoFormat: vertical('cover-vod.jpg'),
        coverPhotoPath: media('cover-vod.jpg'),
        ...recorded,
      },
      // The oak board is shown off camera: listed, never cued, and priced per size.
      products: [
        ...cuedShowProducts(vodStart),
        { productUid: 'nordlys-oak-board', sorting: SHOW_LINEUP.length },
      ],
    },
  ];
}

/** Every admin API write of the demo store, with event times relative to `now`. */
export function demoSeedRequests(now: number): DemoSeedRequest[] {
  const pageUid = DEMO_PAGE_UID;
  const events = demoEvents(now);
  return [
    { url: callPath('putPage', { pageUid }), payload: PAGE },
    ...PRODUCTS.map(({ uid, body }) => ({
      url: callPath('updateStudioProduct', { pageUid, productUid: uid }),
      payload: body,
    })),
    ...events.map(({ campaignUid, campaign }) => ({
      url: callPath('putCampaign', { pageUid, campaignUid }),
      payload: campaign,
    })),
    ...events.map(({ id, campaignUid, event }) => ({
      url: callPath('putEvent', { eventId: id }),
      payload: { pageUid: DEMO_PAGE_UID, campaignId: campaignUid, ...event },
    })),
    ...events.flatMap(({ id, products }) =>
      products.map((body) => ({
        url: callPath('putEventProduct', { eventId: id, uid: body.productUid }),
        payload: body,
      })),
    ),
  ];
}

/** The demo store's owner: `npm start` prints a one-time studio link that signs them in. */
export const DEMO_OWNER = { email: 'owner@nordlys.example', name: 'Nordlys owner' };

/**
 * Creates the demo store "Nordlys Living" on a database without any store, and returns its page
 * uid; returns null and leaves the database alone otherwise. It goes through the admin HTTP API
 * rather than the services so the demo data is validated exactly as an operator's would be.
 */
export async function seedDemoStoreIfEmpty(app: App, adminKey: string, now: number): Promise<string | null> {
  if ((await app.services.stores.pageCount()) > 0) return null;
  for (const { url, payload } of demoSeedRequests(now)) {
    const response = await app.server.inject({
      method: 'PUT',
      url,
      headers: { authorization: `Bearer ${adminKey}` },
      payload,
    });
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new Error(
        `Seeding the demo store failed: PUT ${url} answered ${response.statusCode}: ${response.body}`,
      );
    }
  }
  // A shopper finds clips in the demo as after any show: one per presented product of the ended
  // show, cut from the video its replay plays, this server's own demo-show.mp4 (failed, and so
  // not shown, without ffmpeg).
  await app.services.clips.showEnded(DEMO_REPLAY_EVENT_ID);
  return DEMO_PAGE_UID;
}
