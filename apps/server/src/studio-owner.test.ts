import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgliteDatabase } from './db/pglite-database.ts';
import { releaseEntry } from './test-support/release-build.ts';

const run = promisify(execFile);
/** Preloaded into each tool: it fails the run (exit status 99) if the tool opens a listening socket. */
const noListener = new URL('./test-support/no-listener.mjs', import.meta.url).pathname;
const tool = (name: 'studio-owner' | 'studio-link', ...args: string[]) => [
  '--import',
  noListener,
  releaseEntry(name),
  ...args,
];
let dataDir = '';

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/**
 * `npm run studio:owner` and `npm run studio:link` on a fresh embedded database, as a new
 * deployment runs them. Neither opens a listening socket (no HTTP, RTMP or WHIP port: they run
 * beside the serving process); no-listener.mjs fails a run that does.
 */
describe.skipIf(Boolean(process.env.DATABASE_URL))('npm run studio:owner and studio:link', () => {
  it('creates the store and its owner once, and prints a one-time studio link each run', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vitrine-owner-'));
    const env = {
      ...process.env,
      VITRINE_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      VITRINE_PUBLIC_URL: 'https://shop.example',
    };
    const args = tool('studio-owner', '--email', 'Owner@Ceramics.example', '--store-name', 'Ann’s Ceramics');
    const first = await run(process.execPath, args, { env });
    expect(first.stdout).toContain('Created the store "Ann’s Ceramics" (ann-s-ceramics).');
    const second = await run(process.execPath, args, { env });
    expect(second.stdout).not.toContain('Created the store');
    // An owner who lost her session: a fresh link for the account, nothing else changed.
    const link = await run(process.execPath, tool('studio-link', '--email', ' OWNER@ceramics.example '), {
      env,
    });
    expect(link.stdout).toContain('owner@ceramics.example is owner of Ann’s Ceramics (ann-s-ceramics).');

    const tokens = [first.stdout, second.stdout, link.stdout].map(
      (output) => /https:\/\/shop\.example\/studio\/link#([\w-]+)/.exec(output)?.[1] ?? '',
    );
    expect(tokens.every((token) => token.length >= 40)).toBe(true);
    expect(new Set(tokens).size).toBe(3);

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
  }, 300_000);

  it('studio:link refuses an address with no account, and an account that is no staff', async () => {
    const env = { ...process.env, VITRINE_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const unknown = await run(process.execPath, tool('studio-link', '--email', 'stranger@ceramics.example'), {
      env,
    }).catch((error: { code: number; stderr: string; stdout: string }) => error);
    expect(unknown).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('There is no account with the e-mail stranger@ceramics.example.'),
    });

    const db = await openPgliteDatabase(dataDir);
    try {
      await db.query(
        "INSERT INTO users (uid, name, is_anonymous, email) VALUES ('shopper-1', 'Shopper', false, 'shopper@ceramics.example')",
      );
    } finally {
      await db.close();
    }
    const shopper = await run(process.execPath, tool('studio-link', '--email', 'shopper@ceramics.example'), {
      env,
    }).catch((error: { code: number; stderr: string; stdout: string }) => error);
    expect(shopper).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('shopper@ceramics.example is not staff of any store.'),
    });
  }, 180_000);

  it('refuses a call without an e-mail or store name, with its usage', async () => {
    const usage = await run(process.execPath, tool('studio-link'), {
      env: { ...process.env, VITRINE_DATA_DIR: join(tmpdir(), 'vitrine-never-created') },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: npm run studio:link') });
    const failure = await run(process.execPath, tool('studio-owner', '--email', 'nobody'), {
      env: { ...process.env, VITRINE_DATA_DIR: join(tmpdir(), 'vitrine-never-created') },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Usage: npm run studio:owner'),
    });
  });
});
