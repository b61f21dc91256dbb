import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveStreamView } from '@vitrine/protocol';
import { afterAll, expect, it } from 'vitest';
import { createTestShow, createTestStore, signInStaff } from '../../test-support/studio-staff.ts';
import { openTestApp, openTestDatabase } from '../../test-support/test-app.ts';

/**
 * The studio's preview links are signed with a secret of their own (issue 33 §7): rotating the
 * admin key (the automation key) must not break the preview a host has open.
 */
const liveDir = mkdtempSync(join(tmpdir(), 'vitrine-preview-secret-'));
const db = await openTestDatabase();
afterAll(async () => {
  await db.dispose();
  rmSync(liveDir, { recursive: true, force: true });
});

it('keeps a preview link working across an admin key rotation', async () => {
  const env = { VITRINE_LIVE_DIR: liveDir };
  const before = await openTestApp({ db, env });
  const pageUid = await createTestStore(before);
  const host = await signInStaff(before, pageUid, 'host');
  const showUid = await createTestShow(before, pageUid, host, 'Previewed', { visibility: 'draft' });
  const streamOf = async (app: typeof before) =>
    (
      await app.server.inject({
        method: 'GET',
        url: `/staff/stores/${pageUid}/shows/${showUid}/stream`,
        headers: host.headers,
      })
    ).json() as LiveStreamView;
  const link = (await streamOf(before)).previewUrl;
  expect(link).toMatch(/\?preview=[\w-]{32}$/);
  await before.close();

  // The operator rotates the admin key and restarts the server on the same database.
  const after = await openTestApp({
    db,
    env: { ...env, VITRINE_ADMIN_KEY: 'a-rotated-admin-key-9876543210' },
  });
  try {
    expect((await streamOf(after)).previewUrl).toBe(link);
  } finally {
    await after.close();
  }
});
