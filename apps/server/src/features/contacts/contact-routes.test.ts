import { ContactIncompleteError, UserDoc } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import { CAMPAIGNS, interactionTestApp, PAGE } from '../../test-support/interaction-fixture.ts';

const NOW = Date.UTC(2025, 4, 5, 19, 0, 0);
const { app, post, signIn, record } = interactionTestApp(NOW);
const capture = (token: string | undefined, body: object) =>
  post('/shopapiv2/contact/capture', { pageUid: PAGE, campaignUid: CAMPAIGNS.live, ...body }, token);

describe('POST /shopapiv2/contact/capture', () => {
  it('answers the spec §5 messages for what is missing', async () => {
    const viewer = await signIn();
    const response = await capture(viewer.idToken, { consent: false });
    expect(response.statusCode).toBe(400);
    expect(ContactIncompleteError.parse(response.json())).toEqual({
      error: 'contact_incomplete',
      message:
        'A phone number or an e-mail address is required. The terms must be accepted. Anonymous participation requires a name.',
      problems: ['phoneOrEmail', 'consent', 'name'],
    });
    const onlyConsent = await capture(viewer.idToken, { email: 'a@b.co', name: 'Ada', consent: false });
    expect(onlyConsent.json().problems).toEqual(['consent']);
  });

  it('stores a complete contact and names the anonymous viewer', async () => {
    const viewer = await signIn();
    const user = await record(`user:${viewer.user.uid}`);
    const response = await capture(viewer.idToken, { phone: '+45 12 34 56 78', name: 'Ada', consent: true });
    expect(response.statusCode, response.body).toBe(200);
    const rows = await app().db.query(
      'SELECT page_uid, campaign_uid, user_uid, name, phone, email, consent, source, created_at FROM contact_captures WHERE uid = $1',
      [response.json().uid],
    );
    expect(rows).toEqual([
      {
        page_uid: PAGE,
        campaign_uid: CAMPAIGNS.live,
        user_uid: viewer.user.uid,
        name: 'Ada',
        phone: '+45 12 34 56 78',
        email: '',
        consent: true,
        source: 'tiktok',
        created_at: NOW,
      },
    ]);
    expect(UserDoc.parse(user.changes.at(-1)?.doc).name).toBe('Ada');
    await user.stop();
  });

  it('answers 400 for malformed fields, 401 without a sign-in, 404 for an unknown store', async () => {
    const viewer = await signIn();
    const cases: Array<[object, string]> = [
      [{ email: 'nope', consent: true, name: 'A' }, 'email: must be an e-mail address'],
      [{ phone: 'call me', consent: true, name: 'A' }, 'phone: must be a phone number'],
      [
        { phone: '12345678', consent: 'yes', name: 'A' },
        'consent: Invalid input: expected boolean, received string',
      ],
      [{ phone: '12345678', consent: true, name: 'A', extra: 1 }, 'Unrecognized key: "extra"'],
    ];
    for (const [body, message] of cases) {
      const response = await capture(viewer.idToken, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ error: 'invalid_request', message });
    }
    expect((await capture(undefined, { phone: '12345678', consent: true, name: 'A' })).statusCode).toBe(401);
    const unknown = await post(
      '/shopapiv2/contact/capture',
      { pageUid: 'nope', phone: '12345678', consent: true, name: 'A' },
      viewer.idToken,
    );
    expect(unknown.statusCode).toBe(404);
  });
});
