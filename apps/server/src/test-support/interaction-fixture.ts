import { AuthSession, CommentDoc, CompetitionAdminView, type LiveChange } from '@vitrine/protocol';
import { beforeAll, expect } from 'vitest';
import { fileTestApp, type TestApp } from './file-test-app.ts';
import { adminHeaders, openTestApp } from './test-app.ts';

/** Helpers for the accounts and live-interaction tests: a store with one campaign per show status. */

export const PAGE = 'interaction-shop';
export const CAMPAIGNS = {
  live: 'camp-live',
  planned: 'camp-planned',
  vod: 'camp-vod',
  liveClosed: 'camp-live-closed',
} as const;

/**
 * The studio's path of a show that `setUpShows` made (its event is `ev-<campaign>`): the staff
 * calls the admin key makes, as the store's owner, start here.
 */
export function studioShowPath(campaign: string, pageUid: string = PAGE): string {
  return `/staff/stores/${pageUid}/shows/ev-${campaign}`;
}

/** The live show that `setUpShows` makes on PAGE, as the viewer calls name it. */
export const LIVE_SHOW = { pageUid: PAGE, campaignUid: CAMPAIGNS.live } as const;

/** The studio's path of LIVE_SHOW, where the moderation, competition and control-room calls go. */
export const LIVE_SHOW_STUDIO = studioShowPath(CAMPAIGNS.live);

/** The live show's competitions in the studio: where they are created and listed. */
export const LIVE_SHOW_COMPETITIONS = `${LIVE_SHOW_STUDIO}/competitions`;

/**
 * This test file's app on a clock the test moves by hand (`clock.now`), opened with the shows of
 * `setUpShows` (started at `start`) before the file's tests and closed after them; with the
 * fixture's helpers.
 */
export function interactionTestApp(start: number, env?: Record<string, string>) {
  const clock = { now: start };
  const app = fileTestApp(() => openTestApp({ now: () => clock.now, ...(env ? { env } : {}) }));
  const fixture = interactionFixture(app);
  beforeAll(() => fixture.setUpShows(start));
  return { app, clock, ...fixture };
}

export function interactionFixture(getApp: () => TestApp) {
  const app = () => getApp();

  async function admin(method: 'PUT' | 'POST' | 'PATCH' | 'GET', url: string, payload?: object) {
    return app().server.inject({ method, url, headers: adminHeaders, ...(payload ? { payload } : {}) });
  }
  async function adminOk(method: 'PUT' | 'POST' | 'PATCH' | 'GET', url: string, payload?: object) {
    const response = await admin(method, url, payload);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json();
  }

  /** A competition of the live show, created by the store (the admin key); expects it made. */
  async function createCompetition(body: object): Promise<CompetitionAdminView> {
    const response = await admin('POST', LIVE_SHOW_COMPETITIONS, body);
    expect(response.statusCode, response.body).toBe(201);
    return CompetitionAdminView.parse(response.json());
  }

  /** A second page with `allowCommentsOnLive: false` holds the liveClosed campaign. */
  async function setUpShows(now: number) {
    const page = (uid: string, playerSettings: object) =>
      adminOk('PUT', `/admin/pages/${uid}`, {
        name: `Shop ${uid}`,
        language: 'da',
        currency: 'DKK',
        playerSettings,
      });
    await page(PAGE, {});
    await page(`${PAGE}-quiet`, { allowCommentsOnLive: false });
    const event = (id: string, pageUid: string, campaignId: string, currentStatus: string) =>
      adminOk('PUT', `/admin/events/${id}`, {
        pageUid,
        campaignId,
        currentStatus,
        eventName: id,
        eventStartTimestamp: now - 10 * 60_000,
      });
    for (const [status, campaign] of Object.entries(CAMPAIGNS)) {
      const pageUid = status === 'liveClosed' ? `${PAGE}-quiet` : PAGE;
      await adminOk('PUT', `/admin/pages/${pageUid}/campaigns/${campaign}`, { name: campaign });
      await event(`ev-${campaign}`, pageUid, campaign, status === 'liveClosed' ? 'live' : status);
    }
  }

  function post(url: string, payload: unknown, token?: string) {
    return app().server.inject({
      method: 'POST',
      url,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  /** A comment on the live show (LIVE_SHOW) by the viewer signed in with `token`; expects it taken. */
  async function commentOnLive(token: string, text: string, extra: object = {}): Promise<CommentDoc> {
    const response = await post('/shopapiv2/comment/playerComment', { ...LIVE_SHOW, text, ...extra }, token);
    expect(response.statusCode, response.body).toBe(200);
    return CommentDoc.parse(response.json());
  }

  async function signIn(): Promise<AuthSession> {
    const response = await post('/functions/auth/signInAnonymously', {});
    expect(response.statusCode, response.body).toBe(200);
    return AuthSession.parse(response.json());
  }

  /** Records every batch the app publishes on `topic` (the real change bus). */
  async function record(topic: string) {
    const changes: LiveChange[] = [];
    const stop = await app().bus.listen(topic, (batch) => changes.push(...batch.changes));
    return { changes, stop };
  }

  return { admin, adminOk, createCompetition, setUpShows, post, commentOnLive, signIn, record };
}

/**
 * Anonymous viewers, each signed in from an address of its own (10.<subnet>.x.y), for the abuse
 * tests: anonymous sign-ups are limited per address, and what they test is what many cheap
 * identities can do from one address afterwards.
 */
export function anonymousViewersOwnAddresses(getApp: () => TestApp, subnet: number) {
  let signIns = 0;
  return async function viewer(): Promise<AuthSession> {
    signIns += 1;
    const response = await getApp().server.inject({
      method: 'POST',
      url: '/functions/auth/signInAnonymously',
      payload: {},
      remoteAddress: `10.${subnet}.${Math.floor(signIns / 250)}.${(signIns % 250) + 1}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return AuthSession.parse(response.json());
  };
}
