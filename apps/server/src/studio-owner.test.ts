import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgliteDatabase } from './db/pglite-database.ts';

const run = promisify(execFile);
const script = new URL('./studio-owner.ts', import.meta.url).pathname;
let dataDir = '';

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** `npm run studio:owner` on a fresh embedded database, as a new deployment runs it. */
describe.skipIf(Boolean(process.env.DATABASE_URL))('npm run studio:owner', () => {
  it('creates the store and its owner once, and prints a one-time studio link each run', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vitrine-owner-'));
    const env = {
      ...process.env,
      VITRINE_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      VITRINE_PUBLIC_URL: 'https://shop.example',
    };
    const args = [
      '--import',
      'tsx',
      script,
      '--email',
      'Owner@Ceramics.example',
      '--store-name',
      'Ann’s Ceramics',
    ];
    const first = await run(process.execPath, args, { env });
    expect(first.stdout).toContain('Created the store "Ann’s Ceramics" (ann-s-ceramics).');
    const second = await run(process.execPath, args, { env });
    expect(second.stdout).not.toContain('Created the store');

    const tokens = [first.stdout, second.stdout].map(
      (output) => /https:\/\/shop\.example\/studio\/link#([\w-]+)/.exec(output)?.[1] ?? '',
    );
    expect(tokens.every((token) => token.length >= 40)).toBe(true);
    expect(tokens[0]).not.toBe(tokens[1]);

    const db = await openPgliteDatabase(dataDir);
    try {
      const staff = await db.query<{ page_uid: string; role: string; email: string }>(
        'SELECT s.page_uid, s.role, u.email FROM store_staff s JOIN users u ON u.uid = s.user_uid',
      );
      expect(staff).toEqual([{ page_uid: 'ann-s-ceramics', role: 'owner', email: 'owner@ceramics.example' }]);
      const links = await db.query<{ token_hash: string }>('SELECT token_hash FROM studio_links');
      const hashes = tokens.map((token) => createHash('sha256').update(token).digest('base64url'));
      expect(links.map((link) => link.token_hash).sort()).toEqual(hashes.sort());
    } finally {
      await db.close();
    }
  });

  it('refuses a call without an e-mail or store name, with its usage', async () => {
    const failure = await run(process.execPath, ['--import', 'tsx', script, '--email', 'nobody'], {
      env: { ...process.env, VITRINE_DATA_DIR: join(tmpdir(), 'vitrine-never-created') },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Usage: npm run studio:owner'),
    });
  });
});
