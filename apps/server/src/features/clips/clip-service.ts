import { randomBytes } from 'node:crypto';
import {
  CLIP_MIN_MS,
  chapterClipWindows,
  highlightWindow,
  MAX_HIGHLIGHTS_PER_SHOW,
  trimRefusal,
} from '@vitrine/domain';
import {
  type ClipTrimInput,
  type EventProduct,
  type LiveEvent,
  type PublicClip,
  type StudioClip,
  webPath,
} from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { EventService } from '../events/event-service.ts';
import type { FfmpegDiscovery } from '../live/ffmpeg-binary.ts';
import type { SegmentStore } from '../live/segment-store.ts';
import {
  CLIP_CONTENT_TYPE,
  CLIP_POSTER_CONTENT_TYPE,
  type ClipCut,
  cutClip,
  cutClipFromMp4,
} from './clip-cutter.ts';
import { type ClipRecord, createClipStore } from './clip-store.ts';

/** Clips the SDK's "Seen live" looks through for a product (a store's newest). */
const SEEN_LIVE_CANDIDATES = 200;

/** Where a clip's MP4 is served: its version in the name, so a re-cut is a new address. */
export const clipVideoPath = (clip: Pick<ClipRecord, 'uid' | 'version'>) =>
  `/clips/${encodeURIComponent(clip.uid)}/v${clip.version}.mp4`;

/** Where its poster is served, beside it; null for a clip cut before posters. */
export const clipPosterPath = (clip: Pick<ClipRecord, 'uid' | 'version' | 'posterKey'>) =>
  clip.posterKey === null ? null : `/clips/${encodeURIComponent(clip.uid)}/v${clip.version}.jpg`;

const TRIM_MESSAGES = {
  'outside-window': 'A clip must stay within its chapter (or its highlight): trim inside it.',
  'too-short': `A clip lasts at least ${CLIP_MIN_MS / 1000} seconds.`,
  'too-long': 'This clip is too long.',
} as const;

/** Where a clip is cut from (a recording in the store, an MP4 file), by which ffmpeg, as which file name. */
type ClipSource = (clip: ClipRecord, name: string, ffmpeg: string) => Promise<ClipCut>;

export interface ClipServiceDeps {
  db: Queryable;
  events: Pick<EventService, 'eventProducts' | 'eventsByIds' | 'streamEvent' | 'anyEvent'>;
  /** Where recordings are; clips are put beside them. */
  segments: SegmentStore;
  ffmpeg: FfmpegDiscovery;
  now: () => number;
  log: FastifyBaseLogger;
  /**
   * The MP4 file of this server's own behind a show's video URL (the demo store's replay plays
   * `/demo-media/demo-show.mp4`), or null: such a show has no HLS recording, and its clips are cut,
   * and trimmed, from that file.
   */
  ownVideoFile?: (videoUrl: string) => string | null;
}

/**
 * Clips of shows (issue 32 item 4): when a show ends, each presented product gets a clip cut from
 * the recording at its chapter, and each highlight the control room marked one around its moment.
 * Hosts trim (a re-cut) or hide them; visible ones have a public page, are listed in the sitemap
 * and play on retailers' product pages through the SDK ("Seen live").
 */
export function createClipService(deps: ClipServiceDeps) {
  const { events, segments, now, log } = deps;
  const store = createClipStore(deps.db);
  /** Cuts run one after another: each reads a minute of video and runs one ffmpeg. */
  let queue: Promise<unknown> = Promise.resolve();

  const newUid = () => randomBytes(9).toString('hex');

  async function productsOf(eventId: string): Promise<Map<string, EventProduct>> {
    return new Map((await events.eventProducts(eventId)).map((product) => [product.uid, product]));
  }

  function studioClip(clip: ClipRecord, products: Map<string, EventProduct>): StudioClip {
    const product = clip.eventProductUid ? products.get(clip.eventProductUid) : undefined;
    return {
      uid: clip.uid,
      eventId: clip.eventId,
      kind: clip.kind,
      eventProductUid: clip.eventProductUid,
      productName: product?.product.name ?? null,
      boundsStart: clip.boundsStart,
      boundsEnd: clip.boundsEnd,
      startAt: clip.startAt,
      endAt: clip.endAt,
      state: clip.state,
      hidden: clip.hidden,
      durationSeconds: clip.durationMs === null ? null : clip.durationMs / 1000,
      videoUrl: clip.state === 'ready' && clip.mediaKey ? clipVideoPath(clip) : null,
      posterUrl: clip.state === 'ready' ? clipPosterPath(clip) : null,
      pagePath: webPath('clip', { pageUid: clip.pageUid, clipUid: clip.uid }),
      error: clip.error,
    };
  }

  /** Cuts a clip from the show's HLS recording in the segment store (the usual source). */
  const fromRecording: ClipSource = (clip, name, ffmpeg) =>
    cutClip({
      ffmpeg,
      store: segments,
      eventId: clip.eventId,
      window: { start: clip.startAt, end: clip.endAt },
      name,
    });

  /** Cuts a clip from an MP4 file whose first frame is at stream time `videoStart`. */
  const fromVideoFile =
    (source: string, videoStart: number): ClipSource =>
    (clip, name, ffmpeg) =>
      cutClipFromMp4({
        ffmpeg,
        store: segments,
        eventId: clip.eventId,
        source,
        videoStart,
        window: { start: clip.startAt, end: clip.endAt },
        name,
      });

  /**
   * Where a show's clips are cut from: the MP4 file its replay plays when that is one of this
   * server's own (the demo store's), else its HLS recording. Asked at each cut, so a trim or a
   * re-cut after a restart takes the same source as the first cut.
   */
  async function sourceOf(eventId: string): Promise<ClipSource> {
    const [record] = await events.eventsByIds([eventId]);
    const { cdnMp4VideoUrl: videoUrl, cdnVideoStartTime: videoStart } = record?.event ?? {};
    if (!videoUrl || typeof videoStart !== 'number') return fromRecording;
    const file = deps.ownVideoFile?.(videoUrl);
    return file ? fromVideoFile(file, videoStart) : fromRecording;
  }

  /** Cuts one clip now (queued behind the others); its state says how it went. */
  function cut(clip: ClipRecord): Promise<void> {
    const job = queue.then(async () => {
      // Cut meanwhile (End and the studio's list both asked), or trimmed again: nothing to do.
      const current = await store.one(clip.uid);
      if (current?.state !== 'pending' || current.version !== clip.version) return;
      if (!deps.ffmpeg.available) {
        await store.failed(clip.uid, clip.version, deps.ffmpeg.missing, now());
        return;
      }
      let made: ClipCut;
      try {
        const source = await sourceOf(current.eventId);
        made = await source(current, `${clip.uid}-v${clip.version}`, deps.ffmpeg.path);
      } catch (error) {
        log.warn({ err: error, clipUid: clip.uid, eventId: clip.eventId }, 'cutting a clip failed');
        await store.failed(
          clip.uid,
          clip.version,
          error instanceof Error ? error.message : String(error),
          now(),
        );
        return;
      }
      await store.cut(clip.uid, clip.version, made, now());
    });
    // A database failure is logged: a cut is never an unhandled rejection, whoever waits for it.
    const settled = job.catch((error: unknown) =>
      log.error({ err: error, clipUid: clip.uid }, 'storing a clip cut failed'),
    );
    queue = settled;
    return settled;
  }

  async function requireClip(pageUid: string, showUid: string, clipUid: string): Promise<ClipRecord> {
    const clip = await store.one(clipUid);
    if (!clip || clip.pageUid !== pageUid || clip.eventId !== showUid)
      throw notFound(`No clip "${clipUid}" in this show.`);
    return clip;
  }

  async function requireShow(pageUid: string, showUid: string) {
    const stream = await events.streamEvent(showUid);
    if (!stream || stream.pageUid !== pageUid) throw notFound(`No show "${showUid}" in this store.`);
    return stream;
  }

  /** A visible clip of a public show with its show and product, or null. */
  async function visibleClip(clip: ClipRecord | null): Promise<PublicClip | null> {
    if (clip?.state !== 'ready' || clip.hidden || clip.durationMs === null) return null;
    const [event] = await events.eventsByIds([clip.eventId]);
    if (event?.event.status !== 'public' || event.event.storeInfo.id !== clip.pageUid) return null;
    const product = clip.eventProductUid
      ? ((await productsOf(clip.eventId)).get(clip.eventProductUid) ?? null)
      : null;
    return {
      uid: clip.uid,
      pageUid: clip.pageUid,
      eventId: clip.eventId,
      campaignUid: event.event.campaignId,
      showName: event.event.eventName,
      videoUrl: clipVideoPath(clip),
      posterUrl: clipPosterPath(clip),
      durationSeconds: clip.durationMs / 1000,
      recordedAt: clip.cutStart ?? clip.startAt,
      showOffsetSeconds:
        event.event.cdnVideoStartTime === null
          ? null
          : Math.max(
              0,
              Math.floor(((clip.cutStart ?? clip.startAt) - Number(event.event.cdnVideoStartTime)) / 1000),
            ),
      storeCurrency: event.event.storeInfo.currency,
      product,
    };
  }

  /**
   * The clips of an ended show, made if missing: each presented product's at its first chapter,
   * highlights ended within the broadcast. Answers the clips not cut yet. Called again (a
   * restart, a second End) it adds only what is missing.
   */
  async function prepare(eventId: string): Promise<ClipRecord[]> {
    const stream = await events.streamEvent(eventId);
    if (!stream || stream.liveStartTime === null || stream.liveEndTime === null) return [];
    const liveStart = Number(stream.liveStartTime);
    const liveEnd = Number(stream.liveEndTime);
    const products = await events.eventProducts(eventId);
    const at = now();
    for (const window of chapterClipWindows(products, liveStart, liveEnd)) {
      await store.addChapter({
        uid: newUid(),
        pageUid: stream.pageUid,
        eventId,
        eventProductUid: window.eventProductUid,
        boundsStart: window.start,
        boundsEnd: window.end,
        startAt: window.start,
        endAt: window.end,
        updatedAt: at,
      });
    }
    await store.endHighlights(eventId, liveEnd, at);
    return (await store.ofEvent(eventId)).filter((clip) => clip.state === 'pending');
  }

  return {
    /**
     * The show ended (its replay is in the store): its clips are made (see prepare) and every
     * one not cut yet is cut, one after another.
     */
    async showEnded(eventId: string): Promise<void> {
      for (const clip of await prepare(eventId)) await cut(clip);
    },

    /**
     * Cuts the clips a stopped server left uncut (it stopped while cutting, or before). Called
     * at start; the cuts run in the background, one after another.
     */
    async resumePending(): Promise<void> {
      for (const eventId of await store.eventsWithPending()) {
        const stream = await events.streamEvent(eventId);
        if (stream?.currentStatus === 'vod') for (const clip of await prepare(eventId)) void cut(clip);
      }
    },

    async list(pageUid: string, showUid: string): Promise<{ clips: StudioClip[] }> {
      const stream = await requireShow(pageUid, showUid);
      let clips = await store.ofEvent(showUid);
      // A show that ended before clips were cut (or on a node without them): cut them now.
      if (stream.currentStatus === 'vod' && !clips.some((clip) => clip.kind === 'chapter')) {
        for (const clip of await prepare(showUid)) void cut(clip);
        clips = await store.ofEvent(showUid);
      }
      const products = await productsOf(showUid);
      return { clips: clips.map((clip) => studioClip(clip, products)) };
    },

    /** Trims a clip within its window and cuts it again (once the show has ended). */
    async trim(pageUid: string, showUid: string, clipUid: string, input: ClipTrimInput): Promise<StudioClip> {
      const clip = await requireClip(pageUid, showUid, clipUid);
      const trim = {
        start: clip.boundsStart + input.startOffsetMs,
        end: clip.boundsStart + input.endOffsetMs,
      };
      const refusal = trimRefusal({ start: clip.boundsStart, end: clip.boundsEnd }, trim);
      if (refusal) throw new HttpError(422, 'unprocessable', TRIM_MESSAGES[refusal]);
      await store.trim(clip.uid, trim.start, trim.end, now());
      const stream = await requireShow(pageUid, showUid);
      const trimmed = await store.one(clip.uid);
      if (trimmed && stream.currentStatus === 'vod') await cut(trimmed);
      const products = await productsOf(showUid);
      return studioClip((await store.one(clip.uid)) ?? clip, products);
    },

    async setHidden(pageUid: string, showUid: string, clipUid: string, hidden: boolean): Promise<StudioClip> {
      const clip = await requireClip(pageUid, showUid, clipUid);
      await store.setHidden(clip.uid, hidden, now());
      return studioClip({ ...clip, hidden }, await productsOf(showUid));
    },

    /**
     * Marks now as a highlight of a live show: the seconds around it become a clip when the show
     * ends, selling the product presented at the moment (if one is).
     */
    async markHighlight(pageUid: string, showUid: string): Promise<StudioClip> {
      const stream = await requireShow(pageUid, showUid);
      if (stream.currentStatus !== 'live' || stream.liveStartTime === null)
        throw new HttpError(409, 'not_live', 'A highlight is marked while the show is live.');
      if ((await store.countHighlights(showUid)) >= MAX_HIGHLIGHTS_PER_SHOW)
        throw new HttpError(
          409,
          'too_many_highlights',
          `A show has at most ${MAX_HIGHLIGHTS_PER_SHOW} highlights.`,
        );
      const moment = now();
      const window = highlightWindow(moment, Number(stream.liveStartTime), null);
      const products = await events.eventProducts(showUid);
      // The product on screen: the one whose presentation began last and is still open.
      const presented = products
        .flatMap((product) =>
          product.cues
            .filter(
              (cue) =>
                !cue.deleted &&
                cue.presentationStartTimestamp <= moment &&
                (cue.presentationEndTimestamp === null || cue.presentationEndTimestamp > moment),
            )
            .map((cue) => ({ uid: product.uid, start: cue.presentationStartTimestamp })),
        )
        .sort((a, b) => b.start - a.start)[0];
      const uid = newUid();
      await store.addHighlight({
        uid,
        pageUid,
        eventId: showUid,
        eventProductUid: presented?.uid ?? null,
        boundsStart: window.start,
        boundsEnd: window.end,
        updatedAt: moment,
      });
      const clip = await store.one(uid);
      if (!clip) throw new Error('the highlight was not stored');
      return studioClip(clip, new Map(products.map((product) => [product.uid, product])));
    },

    /** A visible clip for its page and the player; 404 for a hidden, uncut or unknown one. */
    async publicClip(pageUid: string, clipUid: string): Promise<PublicClip> {
      const clip = await store.one(clipUid);
      const visible = clip && clip.pageUid === pageUid ? await visibleClip(clip) : null;
      if (!visible) throw notFound(`No clip "${clipUid}".`);
      return visible;
    },

    /** The page head's facts of a visible clip: the clip and its show; null when it has no page. */
    async clipPage(pageUid: string, clipUid: string): Promise<{ clip: PublicClip; event: LiveEvent } | null> {
      const clip = await store.one(clipUid);
      if (!clip || clip.pageUid !== pageUid) return null;
      const visible = await visibleClip(clip);
      if (!visible) return null;
      const [event] = await events.eventsByIds([clip.eventId]);
      return event ? { clip: visible, event } : null;
    },

    /** The newest visible clip of a retailer's product, by its SKU or external id. */
    async productClip(pageUid: string, reference: string): Promise<{ clip: PublicClip | null }> {
      const candidates = await store.visibleOfPage(pageUid, SEEN_LIVE_CANDIDATES);
      const productsByEvent = new Map<string, Map<string, EventProduct>>();
      for (const clip of candidates) {
        if (!clip.eventProductUid) continue;
        let products = productsByEvent.get(clip.eventId);
        if (!products) {
          products = await productsOf(clip.eventId);
          productsByEvent.set(clip.eventId, products);
        }
        const product = products.get(clip.eventProductUid);
        if (!product || (product.externalId !== reference && product.product.sku !== reference)) continue;
        const visible = await visibleClip(clip);
        if (visible) return { clip: visible };
      }
      return { clip: null };
    },

    /** Visible clips of public shows for the sitemap, newest first. */
    async sitemapClips(limit: number): Promise<{ pageUid: string; clipUid: string; updatedAt: number }[]> {
      const clips = await store.visible(limit);
      const publicEvents = new Set(
        (await events.eventsByIds([...new Set(clips.map((clip) => clip.eventId))]))
          .filter((event) => event.event.status === 'public')
          .map((event) => event.id),
      );
      return clips
        .filter((clip) => publicEvents.has(clip.eventId))
        .map((clip) => ({ pageUid: clip.pageUid, clipUid: clip.uid, updatedAt: clip.updatedAt }));
    },

    /**
     * A visible clip's MP4 or poster (by its served name, `v<version>.mp4` or `.jpg`): the bytes with
     * their type, or where the store serves them.
     */
    async clipFile(
      clipUid: string,
      file: string,
    ): Promise<{ bytes: Buffer; contentType: string } | { location: string } | null> {
      const clip = await store.one(clipUid);
      const [key, contentType] =
        file === `v${clip?.version}.mp4`
          ? [clip?.mediaKey, CLIP_CONTENT_TYPE]
          : file === `v${clip?.version}.jpg`
            ? [clip?.posterKey, CLIP_POSTER_CONTENT_TYPE]
            : [null, null];
      if (!key || !contentType || !(await visibleClip(clip))) return null;
      const location = segments.url(key);
      if (location) return { location };
      const bytes = await segments.get(key);
      return bytes ? { bytes, contentType } : null;
    },

    /** Waits for the cuts under way (tests, closing). */
    settled: () => queue,
  };
}

export type ClipService = ReturnType<typeof createClipService>;
