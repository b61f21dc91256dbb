import type { CompetitionAdminView, Show, ShowList } from '@vitrine/protocol';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestStaffMember as StudioStaff,
  signInStaff,
  signInStoreStaff,
} from '../../test-support/studio-staff.ts';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;

const SHOP = 'shows-shop';
const OTHER = 'shows-other';
const ZONE = 'Europe/Copenhagen';
let owner: StudioStaff;
let host: StudioStaff;
let moderator: StudioStaff;
let otherOwner: StudioStaff;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function send<T = unknown>(
  who: StudioStaff | null,
  method: Method,
  url: string,
  payload?: object,
): Promise<{ status: number; body: T }> {
  const response = await app.server.inject({
    method,
    url,
    headers: who?.headers ?? {},
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, body: (response.body ? response.json() : undefined) as T };
}

const shows = (pageUid = SHOP) => `/staff/stores/${pageUid}/shows`;

async function createShow(fields: object = {}, who = host, pageUid = SHOP): Promise<Show> {
  const created = await send<Show>(who, 'POST', shows(pageUid), {
    name: 'Autumn living',
    startsAt: '2026-10-01T19:00',
    timeZone: ZONE,
    ...fields,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

beforeAll(async () => {
  app = await openTestApp();
  for (const [pageUid, name] of [
    [SHOP, 'Shows shop'],
    [OTHER, 'Other shop'],
  ] as const) {
    const page = await app.server.inject({
      method: 'PUT',
      url: `/admin/pages/${pageUid}`,
      headers: adminHeaders,
      payload: { name, language: 'da', currency: 'DKK' },
    });
    expect(page.statusCode).toBe(200);
    for (const product of ['lamp', 'chair', 'rug']) {
      const put = await app.server.inject({
        method: 'PUT',
        url: `/staff/stores/${pageUid}/products/${pageUid}-${product}`,
        headers: adminHeaders,
        payload: { name: `${product} of ${name}`, prices: { DKK: 10_000 }, images: [`/img/${product}.jpg`] },
      });
      expect(put.statusCode, put.body).toBe(200);
    }
  }
  ({ owner, host, moderator } = await signInStoreStaff(app, SHOP));
  otherOwner = await signInStaff(app, OTHER, 'owner');
});

afterAll(async () => {
  await app?.close();
});

describe('scheduling a show', () => {
  it('creates a draft at the wall-clock time of the given zone, with links but no calendar file', async () => {
    const show = await createShow({ deadline: '2026-10-08T23:59' });
    expect(show).toMatchObject({
      name: 'Autumn living',
      startsAt: Date.UTC(2026, 9, 1, 17, 0),
      timeZone: ZONE,
      deadline: Date.UTC(2026, 9, 8, 21, 59),
      visibility: 'draft',
      currentStatus: 'planned',
      group: 'draft',
      lineup: [],
      deletable: true,
      unpublishable: false,
    });
    expect(show.links.storefrontUrl).toMatch(
      new RegExp(`/widget/${SHOP}/campaign/${show.campaignUid}/event/${show.uid}$`),
    );
    expect(show.links.embedSnippet).toContain(`"eventUid":"${show.uid}"`);
    expect(show.links.calendarUrl).toBeNull();
    const got = await send<Show>(host, 'GET', `${shows()}/${show.uid}`);
    expect(got.body).toEqual(show);
  });

  it('refuses a deadline before the start, an unknown zone and a malformed time, naming the field', async () => {
    const base = { name: 'Bad', startsAt: '2026-10-01T19:00', timeZone: ZONE };
    const early = await send<{ message: string }>(host, 'POST', shows(), {
      ...base,
      deadline: '2026-10-01T18:00',
    });
    expect(early.status).toBe(400);
    expect(early.body.message).toContain('deadline');
    const zone = await send<{ message: string }>(host, 'POST', shows(), { ...base, timeZone: 'Mars/Base' });
    expect(zone.status).toBe(400);
    expect(zone.body.message).toContain('timeZone');
    const time = await send<{ message: string }>(host, 'POST', shows(), { ...base, startsAt: '1 Oct 19:00' });
    expect(time.status).toBe(400);
    expect(time.body.message).toContain('startsAt');
    const empty = await send<{ message: string }>(host, 'POST', shows(), { ...base, name: '  ' });
    expect(empty.status).toBe(400);
    const noZone = await send<{ message: string }>(host, 'PATCH', `${shows()}/${(await createShow()).uid}`, {
      startsAt: '2026-10-02T19:00',
    });
    expect(noZone.status).toBe(400);
    expect(noZone.body.message).toContain('timeZone');
  });

  it('sets, reorders and trims the line-up from the store’s catalogue, keeping kept products’ entries', async () => {
    const show = await createShow();
    const url = `${shows()}/${show.uid}/lineup`;
    const three = await send<Show>(host, 'PUT', url, {
      productUids: [`${SHOP}-lamp`, `${SHOP}-chair`, `${SHOP}-rug`],
    });
    expect(three.status).toBe(200);
    expect(three.body.lineup.map((item) => item.productUid)).toEqual([
      `${SHOP}-lamp`,
      `${SHOP}-chair`,
      `${SHOP}-rug`,
    ]);
    expect(three.body.lineup[0]).toMatchObject({ name: 'lamp of Shows shop', image: '/img/lamp.jpg' });
    const reordered = await send<Show>(host, 'PUT', url, { productUids: [`${SHOP}-rug`, `${SHOP}-lamp`] });
    expect(reordered.body.lineup.map((item) => item.productUid)).toEqual([`${SHOP}-rug`, `${SHOP}-lamp`]);
    const uidOf = (body: Show, productUid: string) =>
      body.lineup.find((item) => item.productUid === productUid)?.uid;
    expect(uidOf(reordered.body, `${SHOP}-rug`)).toBe(uidOf(three.body, `${SHOP}-rug`));
    expect(reordered.body.productCount).toBe(2);

    const foreign = await send(host, 'PUT', url, { productUids: [`${OTHER}-lamp`] });
    expect(foreign.status).toBe(404);
    const twice = await send(host, 'PUT', url, { productUids: [`${SHOP}-rug`, `${SHOP}-rug`] });
    expect(twice.status).toBe(400);
  });

  it('publishes, offers the calendar file, and lets a show go back to draft only before it has been live', async () => {
    const show = await createShow({ name: 'Published; with, commas' });
    const published = await send<Show>(host, 'PATCH', `${shows()}/${show.uid}`, { visibility: 'public' });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ visibility: 'public', group: 'upcoming', unpublishable: true });
    expect(published.body.links.calendarUrl).toMatch(new RegExp(`/calendar/${show.uid}/show.ics$`));

    const ics = await app.server.inject({ method: 'GET', url: `/calendar/${show.uid}/show.ics` });
    expect(ics.statusCode).toBe(200);
    expect(ics.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(ics.body).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(ics.body).toContain('\r\nDTSTART:20261001T170000Z\r\n');
    expect(ics.body).toContain('\r\nSUMMARY:Published\\; with\\, commas\r\n');
    expect(ics.body).toContain(`\r\nUID:${show.uid}@`);
    expect(ics.body.replace(/\r\n/g, '')).not.toMatch(/\n/);

    // Back to draft (cancelled): the calendar file goes with it.
    const cancelled = await send<Show>(host, 'PATCH', `${shows()}/${show.uid}`, { visibility: 'draft' });
    expect(cancelled.body).toMatchObject({ visibility: 'draft', deletable: false });
    expect(
      (await app.server.inject({ method: 'GET', url: `/calendar/${show.uid}/show.ics` })).statusCode,
    ).toBe(404);
    // Once published, a draft is kept rather than deleted.
    expect((await send(host, 'DELETE', `${shows()}/${show.uid}`)).status).toBe(409);

    // A show that has been live stays published.
    await send(host, 'PATCH', `${shows()}/${show.uid}`, { visibility: 'public' });
    await app.db.query(`UPDATE live_events SET current_status = 'live' WHERE id = $1`, [show.uid]);
    const live = await send<Show>(host, 'GET', `${shows()}/${show.uid}`);
    expect(live.body).toMatchObject({ group: 'live', unpublishable: false });
    expect((await send(host, 'PATCH', `${shows()}/${show.uid}`, { visibility: 'draft' })).status).toBe(409);
    expect((await send(host, 'DELETE', `${shows()}/${show.uid}`)).status).toBe(409);
  });

  it('moves the start in the show’s zone and keeps its name on the campaign', async () => {
    const show = await createShow();
    const moved = await send<Show>(host, 'PATCH', `${shows()}/${show.uid}`, {
      name: 'Renamed',
      startsAt: '2026-07-01T10:00',
      timeZone: 'America/New_York',
    });
    expect(moved.body).toMatchObject({
      name: 'Renamed',
      startsAt: Date.UTC(2026, 6, 1, 14, 0),
      timeZone: 'America/New_York',
    });
  });

  it('deletes a draft that was never published, with its campaign', async () => {
    const show = await createShow();
    expect((await send(host, 'DELETE', `${shows()}/${show.uid}`)).status).toBe(204);
    expect((await send(host, 'GET', `${shows()}/${show.uid}`)).status).toBe(404);
    const [campaign] = await app.db.query('SELECT 1 FROM campaigns WHERE uid = $1', [show.campaignUid]);
    expect(campaign).toBeUndefined();
  });

  it('lists every show by group with counts, searches names and pages', async () => {
    await createShow({ name: 'Zebra stripes special' });
    const all = await send<ShowList>(host, 'GET', `${shows()}?limit=2`);
    expect(all.status).toBe(200);
    expect(all.body.timeZone).toBe('Europe/Copenhagen');
    expect(all.body.shows).toHaveLength(2);
    expect(all.body.total).toBeGreaterThan(2);
    const counted = Object.values(all.body.counts).reduce((sum, count) => sum + count, 0);
    expect(counted).toBe(all.body.total);
    const next = await send<ShowList>(host, 'GET', `${shows()}?limit=2&offset=2`);
    expect(next.body.shows[0]?.uid).not.toBe(all.body.shows[0]?.uid);
    const drafts = await send<ShowList>(host, 'GET', `${shows()}?group=draft`);
    expect(drafts.body.shows.every((show) => show.group === 'draft')).toBe(true);
    expect(drafts.body.total).toBe(all.body.counts.draft);
    const found = await send<ShowList>(host, 'GET', `${shows()}?search=zebra`);
    expect(found.body.shows.map((show) => show.name)).toEqual(['Zebra stripes special']);
    expect((await send(host, 'GET', `${shows()}?search=100%25_`)).status).toBe(200);
    expect((await send(host, 'GET', `${shows()}?group=someday`)).status).toBe(400);
  });

  it('previews a draft for staff only, as the player would get it', async () => {
    const show = await createShow({ name: 'Secret preview' });
    await send(host, 'PUT', `${shows()}/${show.uid}/lineup`, { productUids: [`${SHOP}-chair`] });
    const preview = await send<{
      event: { event: { eventName: string; status: string } };
      products: unknown[];
    }>(host, 'GET', `${shows()}/${show.uid}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.body.event.event).toMatchObject({ eventName: 'Secret preview', status: 'draft' });
    expect(preview.body.products).toHaveLength(1);
    expect((await send(null, 'GET', `${shows()}/${show.uid}/preview`)).status).toBe(401);
  });

  it('uploads a cover image, resized to WebP, and refuses what is not an image', async () => {
    const show = await createShow();
    const png = await sharp({
      create: { width: 1600, height: 900, channels: 3, background: { r: 200, g: 120, b: 40 } },
    })
      .png()
      .toBuffer();
    const upload = (pageUid: string, who: StudioStaff, payload: Buffer, type = 'image/png') =>
      app.server.inject({
        method: 'POST',
        url: `${shows(pageUid)}/${show.uid}/cover`,
        headers: { ...who.headers, 'content-type': type },
        payload,
      });
    expect((await upload(OTHER, otherOwner, png)).statusCode).toBe(404);
    const uploaded = await upload(SHOP, host, png);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const coverUrl = (uploaded.json() as Show).coverUrl as string;
    expect(coverUrl).toMatch(new RegExp(`^/media/${SHOP}/.+\\.webp$`));
    const served = await app.server.inject({ method: 'GET', url: coverUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const preview = await send<{ event: { event: { coverPhotoPath: string } } }>(
      host,
      'GET',
      `${shows()}/${show.uid}/preview`,
    );
    expect(preview.body.event.event.coverPhotoPath).toBe(coverUrl);
    const fake = await upload(SHOP, host, Buffer.from('not really a png'));
    expect(fake.statusCode).toBe(415);
    expect((await upload(SHOP, host, png, 'text/plain')).statusCode).toBe(415);
  });

  it('writes each change to the audit log', async () => {
    const show = await createShow({ name: 'Audited show' });
    const log = await send<{ entries: Array<{ action: string; target: Record<string, string> }> }>(
      owner,
      'GET',
      `/staff/stores/${SHOP}/audit`,
    );
    expect(log.body.entries[0]).toMatchObject({ action: 'createShow' });
    await send(host, 'PATCH', `${shows()}/${show.uid}`, { name: 'Audited again' });
    const again = await send<{ entries: Array<{ action: string; target: Record<string, string> }> }>(
      owner,
      'GET',
      `/staff/stores/${SHOP}/audit`,
    );
    expect(again.body.entries[0]).toMatchObject({ action: 'updateShow', target: { showUid: show.uid } });
  });
});

describe('competitions prepared for a show', () => {
  it('lets a moderator prepare, change and delete a poll; one with entries is kept', async () => {
    const show = await createShow();
    const url = `${shows()}/${show.uid}/competitions`;
    const created = await send<CompetitionAdminView>(moderator, 'POST', url, {
      type: 'poll',
      name: 'Which colour?',
      options: [
        { id: 'red', text: 'Red' },
        { id: 'blue', text: 'Blue' },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ campaignUid: show.campaignUid, openForParticipation: false });
    const changed = await send<CompetitionAdminView>(moderator, 'PATCH', `${url}/${created.body.uid}`, {
      name: 'Which colour, really?',
    });
    expect(changed.body.name).toBe('Which colour, really?');
    const listed = await send<{ competitions: CompetitionAdminView[] }>(moderator, 'GET', url);
    expect(listed.body.competitions.map((competition) => competition.uid)).toEqual([created.body.uid]);
    expect((await send(moderator, 'DELETE', `${url}/${created.body.uid}`)).status).toBe(204);
    expect((await send<{ competitions: unknown[] }>(moderator, 'GET', url)).body.competitions).toEqual([]);

    const raffle = await send<CompetitionAdminView>(host, 'POST', url, {
      type: 'raffle',
      name: 'Win a lamp',
    });
    await app.db.query(
      `INSERT INTO competition_participants (competition_uid, user_uid, option_id, time) VALUES ($1, $2, NULL, 0)`,
      [raffle.body.uid, host.userUid],
    );
    expect((await send(moderator, 'DELETE', `${url}/${raffle.body.uid}`)).status).toBe(409);
  });

  it('refuses a poll with one option, naming the field', async () => {
    const show = await createShow();
    const bad = await send<{ message: string }>(moderator, 'POST', `${shows()}/${show.uid}/competitions`, {
      type: 'poll',
      name: 'Lonely',
      options: [{ id: 'a', text: 'A' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('options');
  });
});

describe('roles and stores', () => {
  it('lets hosts and owners schedule shows, and moderators only list them and prepare competitions', async () => {
    const show = await createShow({}, owner);
    for (const [method, url] of [
      ['POST', shows()],
      ['GET', `${shows()}/${show.uid}`],
      ['PATCH', `${shows()}/${show.uid}`],
      ['DELETE', `${shows()}/${show.uid}`],
      ['PUT', `${shows()}/${show.uid}/lineup`],
      ['GET', `${shows()}/${show.uid}/preview`],
    ] as const) {
      const refused = await send<{ error: string }>(
        moderator,
        method,
        url,
        method === 'GET' ? undefined : {},
      );
      expect(refused.status, `${method} ${url}`).toBe(403);
      expect(refused.body.error).toBe('role_required');
    }
    expect((await send(moderator, 'GET', `${shows()}/${show.uid}/competitions`)).status).toBe(200);
    expect((await send(moderator, 'GET', shows())).status).toBe(200);
    expect((await send(owner, 'GET', `${shows()}/${show.uid}/competitions`)).status).toBe(200);
    expect((await send(null, 'GET', shows())).status).toBe(401);
  });

  it("answers 404 to another store's staff addressing this store's show through their own store", async () => {
    const show = await createShow();
    const competition = await send<CompetitionAdminView>(
      host,
      'POST',
      `${shows()}/${show.uid}/competitions`,
      {
        type: 'raffle',
        name: 'Mine',
      },
    );
    const theirs = `${shows(OTHER)}/${show.uid}`;
    const competitionUrl = `${theirs}/competitions/${competition.body.uid}`;
    for (const [method, url, payload] of [
      ['GET', theirs, undefined],
      ['PATCH', theirs, { name: 'Taken over' }],
      ['DELETE', theirs, undefined],
      ['PUT', `${theirs}/lineup`, { productUids: [] }],
      ['GET', `${theirs}/preview`, undefined],
      ['GET', `${theirs}/competitions`, undefined],
      ['POST', `${theirs}/competitions`, { type: 'raffle', name: 'Sneaky' }],
      ['PATCH', competitionUrl, { name: 'Sneaky' }],
      ['DELETE', competitionUrl, undefined],
    ] as const) {
      const answer = await send(otherOwner, method, url, payload);
      expect(answer.status, `${method} ${url}`).toBe(404);
    }
    // And their list does not hold it.
    const list = await send<ShowList>(otherOwner, 'GET', shows(OTHER));
    expect(list.body.shows.map((candidate) => candidate.uid)).not.toContain(show.uid);
    // A competition of another show of the same store is not this show's either.
    const sibling = await createShow();
    const cross = await send(
      host,
      'DELETE',
      `${shows()}/${sibling.uid}/competitions/${competition.body.uid}`,
    );
    expect(cross.status).toBe(404);
    // Staff of another store are not staff here.
    expect((await send(otherOwner, 'GET', `${shows()}/${show.uid}`)).status).toBe(403);
    expect((await send<Show>(host, 'GET', `${shows()}/${show.uid}`)).body.name).toBe('Autumn living');
  });
});
