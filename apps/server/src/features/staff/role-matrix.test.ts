import { roleIncludes, STAFF_ROLES } from '@vitrine/domain';
import { CallCatalogue, type CallDefinition, type CallName, callPath } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, signInStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';

/**
 * Every studio call of the catalogue × every kind of caller: nobody (401), an anonymous viewer,
 * a signed-in account that is staff of no store, an owner of another store (403 each), each role
 * of the store (admitted exactly when the role includes the call's) and the admin key
 * (admitted). Calls are read from the catalogue, so a call added later is covered without
 * touching this file. "Admitted" means the call got past the gate to its route: any answer but
 * 401, 403 or "no such route" (a 400 for a dummy body is fine; the gate runs before the body is
 * read).
 */
type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;
let store: string;
const callers = new Map<string, { authorization?: string }>();

const STAFF_CALLS = (Object.entries(CallCatalogue) as [CallName, CallDefinition][]).filter(
  ([, call]) => typeof call.auth === 'object',
);

beforeAll(async () => {
  app = await openTestApp();
  store = await createTestStore(app, 'matrix-store');
  const otherStore = await createTestStore(app, 'matrix-other-store');
  const headersOf = (member: TestStaffMember) => member.headers;
  for (const role of STAFF_ROLES) callers.set(role, headersOf(await signInStaff(app, store, role)));
  callers.set('owner of another store', headersOf(await signInStaff(app, otherStore, 'owner')));
  callers.set('account with no store', headersOf(await signInStaff(app, store, null)));
  const anonymous = await app.server.inject({
    method: 'POST',
    url: '/functions/auth/signInAnonymously',
    payload: {},
  });
  callers.set('anonymous viewer', { authorization: `Bearer ${anonymous.json().idToken}` });
  callers.set('nobody', {});
  callers.set('a forged token', { authorization: 'Bearer not-a-token' });
});

afterAll(async () => {
  await app?.close();
});

/** The call's path in the matrix store, its other parameters filled with ids that exist nowhere. */
function urlOf(name: CallName, call: CallDefinition): string {
  const params = Object.fromEntries(
    [...call.path.matchAll(/:([A-Za-z]+)/g)].map(([, key]) => [
      key,
      key === 'pageUid' ? store : 'matrix-nothing',
    ]),
  );
  return callPath(name, params as Record<string, string>);
}

const isRouteMissing = (body: string) => /^(Route |No route )/.test(JSON.parse(body || '{}').message ?? '');

describe('the studio role matrix', () => {
  it('has studio calls to check', () => {
    expect(STAFF_CALLS.length).toBeGreaterThan(5);
  });

  it.each(STAFF_CALLS)('%s', async (name, call) => {
    const required = typeof call.auth === 'object' ? call.auth.staff : 'owner';
    const outcomes: Record<string, number> = {};
    const expected: Record<string, number | 'admitted'> = {};
    for (const [caller, headers] of [...callers, ['admin key', adminHeaders] as const]) {
      const response = await app.server.inject({
        method: call.method,
        url: urlOf(name, call),
        headers: {
          ...headers,
          ...(call.method === 'GET' || call.method === 'DELETE'
            ? {}
            : { 'content-type': 'application/json' }),
        },
        ...(call.method === 'GET' || call.method === 'DELETE' ? {} : { payload: '{}' }),
      });
      expect(isRouteMissing(response.body), `${name} is not served (${response.body})`).toBe(false);
      const admitted = ![401, 403].includes(response.statusCode);
      outcomes[caller] = admitted ? 0 : response.statusCode;
      const role = STAFF_ROLES.find((candidate) => candidate === caller);
      expected[caller] =
        caller === 'admin key' || (role && roleIncludes(role, required))
          ? 0
          : caller === 'nobody' || caller === 'a forged token'
            ? 401
            : 403;
    }
    // 0 stands for "admitted": one comparison shows the whole row when it fails.
    expect(outcomes).toEqual(expected);
  });
});
