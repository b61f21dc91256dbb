import { describe, expect, it } from 'vitest';
import { ABUSE_LIMITS } from '../../http/abuse-limits.ts';
import {
  anonymousViewersOwnAddresses,
  CAMPAIGNS,
  interactionTestApp,
  PAGE,
} from '../../test-support/interaction-fixture.ts';

// Issue 12 item 5: contact capture with third-party e-mails, from one account and from many cheap
// anonymous accounts at one address, performed through the API with the abuse limits on.

const NOW = Date.UTC(2025, 4, 5, 19, 0, 0);
const { app, clock } = interactionTestApp(NOW, { VITRINE_ABUSE_LIMITS: 'on' });
const { perUser, perAddress } = ABUSE_LIMITS.contactCapture;

/** Anonymous viewers, each from an address of its own (sign-ups are limited per address). */
const viewer = anonymousViewersOwnAddresses(app, 3);

function capture(token: string, index: number, remoteAddress: string) {
  return app().server.inject({
    method: 'POST',
    url: '/shopapiv2/contact/capture',
    headers: { authorization: `Bearer ${token}` },
    payload: {
      pageUid: PAGE,
      campaignUid: CAMPAIGNS.live,
      email: `victim${index}@example.com`,
      name: 'Someone else',
      consent: true,
    },
    remoteAddress,
  });
}

const stored = async () =>
  Number((await app().db.query<{ n: string }>('SELECT count(*) AS n FROM contact_captures'))[0]?.n);

describe('contact capture limits', () => {
  it('caps 300 captures of third-party e-mails from one account', async () => {
    const attacker = await viewer();
    const statuses: number[] = [];
    for (let index = 0; index < 300; index++) {
      statuses.push((await capture(attacker.idToken, index, '192.0.2.1')).statusCode);
    }
    expect(statuses).toEqual([...Array(perUser.max).fill(200), ...Array(300 - perUser.max).fill(429)]);
    expect(await stored()).toBe(perUser.max);
    clock.now += perUser.windowMs; // the next window
    expect((await capture(attacker.idToken, 999, '192.0.2.1')).statusCode).toBe(200);
  });

  it('caps captures from many anonymous accounts at one address', async () => {
    clock.now += perAddress.windowMs;
    const before = await stored();
    const accounts = await Promise.all(
      Array.from({ length: perAddress.max / perUser.max + 2 }, () => viewer()),
    );
    let accepted = 0;
    let index = 0;
    for (const account of accounts) {
      for (let attempt = 0; attempt < perUser.max; attempt++) {
        if ((await capture(account.idToken, index++, '192.0.2.2')).statusCode === 200) accepted += 1;
      }
    }
    expect(accepted).toBe(perAddress.max);
    expect((await stored()) - before).toBe(perAddress.max);
    const refused = await capture((await viewer()).idToken, index, '192.0.2.2');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('rate_limited');
    // Viewers behind another address are not affected.
    expect((await capture((await viewer()).idToken, index, '192.0.2.3')).statusCode).toBe(200);
  });
});
