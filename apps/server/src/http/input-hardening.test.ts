import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, openTestApp } from '../test-support/test-app.ts';

/** Issue 12 §9: small holes in input handling, each performed through the public API. */
let app: Awaited<ReturnType<typeof openTestApp>>;

beforeAll(async () => {
  app = await openTestApp();
});
afterAll(async () => {
  await app?.close();
});

const putPage = (uid: string, payload: object) =>
  app.server.inject({ method: 'PUT', url: `/admin/pages/${uid}`, headers: adminHeaders, payload });

describe('database errors', () => {
  it('answers a value the database cannot store with a 400 that names no database internals', async () => {
    const response = await putPage('nul-page', { name: 'Nul\u0000Store' });
    expect(response.statusCode).toBe(400);
    const body = response.json() as { error: string; message: string };
    expect(body).toEqual({
      error: 'invalid_request',
      message: 'Invalid value: A text contains a character that cannot be stored (such as a NUL character).',
    });
    expect(body.message).not.toMatch(/UTF8|0x00|encoding|byte sequence|jsonb|unicode/i);
  });
});

describe('media URLs', () => {
  const OTHER_HOST = [
    '//evil.example/pixel.gif',
    '/\\evil.example/pixel.gif',
    'https:///evil',
    'javascript:alert(1)',
  ];

  it.each(OTHER_HOST)('refuses %s as a store logo', async (logo) => {
    const response = await putPage('logo-page', { name: 'Logo store', logo });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe('logo: must be an http(s) URL or a path');
  });

  it.each(OTHER_HOST)('refuses %s as a viewer’s avatar', async (avatar) => {
    const session = await app.server.inject({
      method: 'POST',
      url: '/functions/auth/signInAnonymously',
      payload: {},
    });
    const { idToken, user } = session.json() as { idToken: string; user: { uid: string } };
    const response = await app.server.inject({
      method: 'POST',
      url: '/functions/customerpage/updateUser',
      headers: { authorization: `Bearer ${idToken}` },
      payload: { customerUid: user.uid, updates: { avatar } },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe('updates.avatar: must be an http(s) URL or a path');
  });

  it.each(['/demo-media/cover.jpg', 'https://cdn.example/a.jpg', 'http://cdn.example:8080/b.png'])(
    'keeps accepting %s',
    async (logo) => {
      const response = await putPage('logo-page', { name: 'Logo store', logo });
      expect(response.statusCode, response.body).toBe(200);
    },
  );
});
