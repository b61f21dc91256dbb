import { AuthSession } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryChangeBus } from '../../realtime/memory-change-bus.ts';
import {
  authFrame,
  connect,
  isAnswerTo,
  isFrame,
  startTestServer,
  subscribeFrame,
  type TestServer,
} from '../../test-support/realtime-test-client.ts';
import { signIdToken } from './id-token.ts';

/**
 * Logging out ends the sign-in everywhere (issue 12 item 4): the id tokens issued from it stop
 * working at once, on every node, cannot be exchanged for new sessions, and the sockets that
 * authenticated with them lose what that let them read.
 */

const bus = createMemoryChangeBus();
let nodeA: TestServer;
let nodeB: TestServer;

beforeAll(async () => {
  nodeA = await startTestServer({ bus });
  // A second node on the same database and bus: the logout happens on A, the socket is on B.
  nodeB = await startTestServer({ db: nodeA.db, bus });
});

afterAll(async () => {
  await nodeB?.close();
  await nodeA?.close();
  await bus.close();
});

async function post(node: TestServer, path: string, body: unknown, idToken?: string) {
  const response = await fetch(`${node.httpUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(idToken ? { authorization: `Bearer ${idToken}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function signUp(email: string): Promise<AuthSession> {
  const response = await post(nodeA, '/functions/auth/signUp', {
    email,
    password: 'a long and private phrase',
    name: 'Lena',
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return AuthSession.parse(response.body);
}

const renameAs = (idToken: string, uid: string) =>
  post(
    nodeB,
    '/functions/customerpage/updateUser',
    { customerUid: uid, updates: { name: 'Thief' } },
    idToken,
  );

describe('logout', () => {
  it("makes the sign-in's unexpired id token useless: no requests, no refresh into a new session", async () => {
    const account = await signUp('lena@example.com');
    expect((await renameAs(account.idToken, account.user.uid)).status).toBe(200);

    const out = await post(nodeA, '/functions/auth/logout', { refreshToken: account.refreshToken });
    expect(out.status).toBe(200);

    // The id token has most of its hour left, but its sign-in has ended (checked on node B).
    const after = await renameAs(account.idToken, account.user.uid);
    expect(after).toEqual({
      status: 401,
      body: { error: 'unauthenticated', message: 'This sign-in has ended (logged out); sign in again.' },
    });
    // Nor can whoever copied it exchange it for a fresh session (a new family beside the old one).
    const exchanged = await post(nodeB, '/functions/auth/refreshIdToken', { idToken: account.idToken });
    expect(exchanged.status).toBe(401);
    const refreshed = await post(nodeB, '/functions/auth/refreshIdToken', {
      refreshToken: account.refreshToken,
    });
    expect(refreshed.status).toBe(401);
  });

  it('refuses to exchange a live id token for a session: the refresh token is the only way', async () => {
    const account = await signUp('mira@example.com');
    const exchanged = await post(nodeA, '/functions/auth/refreshIdToken', { idToken: account.idToken });
    expect(exchanged).toEqual({
      status: 401,
      body: {
        error: 'unauthenticated',
        message: 'This id token cannot be exchanged; refresh with the refresh token, or sign in again.',
      },
    });
    // A token from before families (no `fam`) of a user who is no longer anonymous: refused too.
    const legacy = signIdToken(
      await nodeA.services.auth.signingKey(),
      { sub: account.user.uid, anon: false },
      Date.now(),
    );
    expect((await post(nodeA, '/functions/auth/refreshIdToken', { idToken: legacy.token })).status).toBe(401);
  });

  it("unauthenticates the sign-in's sockets on every node and drops its private subscriptions", async () => {
    const account = await signUp('nora@example.com');
    const other = await signUp('olga@example.com');
    const socket = await connect(nodeB.wsUrl);
    const bystander = await connect(nodeB.wsUrl);
    try {
      socket.send(authFrame(account.idToken));
      expect(await socket.nextFrame(isFrame('auth_result'))).toEqual({
        type: 'auth_result',
        userUid: account.user.uid,
      });
      const own = subscribeFrame('user', { userUid: account.user.uid });
      socket.send(own);
      expect(await socket.nextFrame(isAnswerTo(own.id))).toMatchObject({ type: 'snapshot' });
      bystander.send(authFrame(other.idToken));
      await bystander.nextFrame(isFrame('auth_result'));

      expect(
        (await post(nodeA, '/functions/auth/logout', { refreshToken: account.refreshToken })).status,
      ).toBe(200);

      expect(await socket.nextFrame(isFrame('error'))).toMatchObject({
        id: '',
        code: 'unauthenticated',
        message: 'This sign-in has ended (logged out); sign in again.',
      });
      expect(await socket.nextFrame(isAnswerTo(own.id))).toMatchObject({
        type: 'error',
        code: 'unauthenticated',
      });
      expect(await socket.nextFrame(isFrame('auth_result'))).toEqual({ type: 'auth_result', userUid: null });
      // The token cannot authenticate the socket again either.
      socket.send(authFrame(account.idToken));
      expect(await socket.nextFrame(isFrame('error'))).toMatchObject({
        code: 'unauthenticated',
        message: 'This sign-in has ended (logged out); sign in again.',
      });
      // Another user's socket keeps its sign-in.
      const theirs = subscribeFrame('user', { userUid: other.user.uid });
      bystander.send(theirs);
      expect(await bystander.nextFrame(isAnswerTo(theirs.id))).toMatchObject({ type: 'snapshot' });
    } finally {
      socket.close();
      bystander.close();
    }
  });
});
