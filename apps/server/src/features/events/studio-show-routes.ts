import { buildCalendarFile, SHOW_CALENDAR_PATH, showStorefrontPath } from '@vitrine/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { notFound } from '../../http/errors.ts';
import { registerCall } from '../../http/register-call.ts';
import type { ShowService } from './show-service.ts';

/** Stores a show's cover image (the media feature) and answers its public URL. */
export type StoreCoverImage = (pageUid: string, bytes: Uint8Array) => Promise<{ url: string }>;

/** The studio's show calls (hosts) and the public calendar file of a published show. */
export function registerStudioShowRoutes(
  app: FastifyInstance,
  deps: {
    /** The calendar file's DTSTAMP: when it was made. */
    now: () => number;
    shows: ShowService;
    staffGate: StaffGate;
    /** The origin links point at: the configured public URL, else the request's own. */
    publicOrigin: (request: FastifyRequest) => string;
    storeCoverImage: StoreCoverImage;
  },
): void {
  const { shows, staffGate, publicOrigin } = deps;
  const staff = { staffGate };
  registerCall(app, 'listShows', (_body, { params, query }) => shows.list(params.pageUid, query), staff);
  registerCall(
    app,
    'getShow',
    (_body, { params, request }) => shows.show(params.pageUid, params.showUid, publicOrigin(request)),
    staff,
  );
  registerCall(
    app,
    'createShow',
    (input, { params, request }) => shows.create(params.pageUid, input, publicOrigin(request)),
    staff,
  );
  registerCall(
    app,
    'updateShow',
    (input, { params, request }) =>
      shows.update(params.pageUid, params.showUid, input, publicOrigin(request)),
    staff,
  );
  registerCall(app, 'deleteShow', (_body, { params }) => shows.delete(params.pageUid, params.showUid), staff);
  registerCall(
    app,
    'setShowLineup',
    (input, { params, request }) =>
      shows.setLineup(params.pageUid, params.showUid, input.productUids, publicOrigin(request)),
    staff,
  );
  registerCall(
    app,
    'uploadShowCover',
    async (bytes, { params, request }) => {
      // The show first: nothing is stored for a show of another store.
      await shows.campaignOf(params.pageUid, params.showUid);
      const { url } = await deps.storeCoverImage(params.pageUid, bytes);
      return shows.setCover(params.pageUid, params.showUid, url, publicOrigin(request));
    },
    staff,
  );
  registerCall(
    app,
    'previewShow',
    (_body, { params }) => shows.preview(params.pageUid, params.showUid),
    staff,
  );

  // Public: what a viewer adds to their calendar. Drafts (and unknown shows) have none.
  app.get<{ Params: { eventId: string } }>(SHOW_CALENDAR_PATH, async (request, reply) => {
    const entry = await shows.calendarEntry(request.params.eventId);
    if (!entry) throw notFound('No such show.');
    const origin = publicOrigin(request);
    const url = `${origin}${showStorefrontPath({ ...entry, eventId: request.params.eventId })}`;
    const file = buildCalendarFile({
      uid: `${request.params.eventId}@${new URL(origin).host}`,
      stamp: deps.now(),
      start: entry.start,
      end: entry.end,
      summary: entry.name,
      description: url,
      url,
      productId: '-//Vitrine//Shows//EN',
    });
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', 'attachment; filename="show.ics"')
      .header('cache-control', 'public, max-age=300')
      .send(file);
  });
}
