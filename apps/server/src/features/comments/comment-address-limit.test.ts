import { describe, expect, it } from 'vitest';
import { COMMENTS_PER_ADDRESS_FACTOR } from '../../http/abuse-limits.ts';
import {
  anonymousViewersOwnAddresses,
  CAMPAIGNS,
  interactionTestApp,
  PAGE,
} from '../../test-support/interaction-fixture.ts';

// Issue 12 item 5: 1,000 comments in 3 s from cheap anonymous accounts, each within its own
// per-user limit, all from one address; performed through the API with the abuse limits on.

const NOW = Date.UTC(2025, 4, 5, 19, 0, 0);
const PER_USER = 5;
const WINDOW_SECONDS = 10;
const { app } = interactionTestApp(NOW, {
  VITRINE_ABUSE_LIMITS: 'on',
  VITRINE_COMMENT_RATE_LIMIT: `${PER_USER}/${WINDOW_SECONDS}`,
});

/** Anonymous viewers, each from an address of its own (sign-ups are limited per address). */
const viewer = anonymousViewersOwnAddresses(app, 4);

const comment = (token: string, text: string, remoteAddress: string) =>
  app().server.inject({
    method: 'POST',
    url: '/shopapiv2/comment/playerComment',
    headers: { authorization: `Bearer ${token}` },
    payload: { pageUid: PAGE, campaignUid: CAMPAIGNS.live, text, threadId: null, context: 'on_site' },
    remoteAddress,
  });

describe('comments per address', () => {
  it('caps comments from many anonymous accounts at one address at a multiple of the per-user limit', async () => {
    const perAddress = PER_USER * COMMENTS_PER_ADDRESS_FACTOR;
    const accounts = await Promise.all(Array.from({ length: perAddress / PER_USER + 2 }, () => viewer()));
    let accepted = 0;
    for (const account of accounts) {
      for (let index = 0; index < PER_USER; index++) {
        if ((await comment(account.idToken, `spam ${index}`, '192.0.2.9')).statusCode === 200) accepted += 1;
      }
    }
    expect(accepted).toBe(perAddress);
    const refused = await comment((await viewer()).idToken, 'one more', '192.0.2.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many requests from your network/);
    // A viewer behind another address still comments.
    expect((await comment((await viewer()).idToken, 'hello', '192.0.2.10')).statusCode).toBe(200);
  });

  it("does not let one user's refused comments use up the address's allowance", async () => {
    const spammer = await viewer();
    const statuses = [];
    for (let index = 0; index < 50; index++) {
      statuses.push((await comment(spammer.idToken, `flood ${index}`, '192.0.2.11')).statusCode);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(PER_USER);
    const neighbours = await Promise.all(Array.from({ length: 3 }, () => viewer()));
    for (const neighbour of neighbours) {
      expect((await comment(neighbour.idToken, 'hi', '192.0.2.11')).statusCode).toBe(200);
    }
  });
});
