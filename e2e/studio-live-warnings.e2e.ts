import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveStreamView, Show } from '@vitrine/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishTestStream } from '../apps/server/src/test-support/live-publisher.ts';
import { axeFindings } from './support/axe.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { SERVER_START_BOUND_MS, startServer } from './support/server-process.ts';
import { createStaffAccount, openStudioAs } from './support/studio.ts';
import { startStudioHost } from './support/studio-host.ts';
import { testServer } from './support/test-server.ts';

// Issue 15's faults as the host sees them on the go-live page: the recordings disk's free space
// and minutes left, and a 4K 60 fps stream this node would have to transcode, refused with why.

const { baseUrl, adminKey } = testServer();
const STORE = 'demo-store';

const texts = webLocale('studio-live/en') as {
  page: { title: string };
  health: { refused: string; diskFull: string };
};

let browser: Browser;
let page: Page;
let hostToken: string;
let scratch: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ browser, page, hostToken } = await startStudioHost(STORE, pageErrors));
  scratch = mkdtempSync(join(tmpdir(), 'vitrine-e2e-uhd-'));
});

afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the go-live page warns the host', () => {
  it('shows the disk space left, and why a 4K 60 fps FLV1 stream was refused', async () => {
    const created = await fetch(`${baseUrl}/staff/stores/${STORE}/shows`, {
      method: 'POST',
      headers: { authorization: `Bearer ${hostToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `Refused 4K ${Date.now()}`,
        startsAt: '2026-12-01T19:00',
        timeZone: 'Europe/Copenhagen',
      }),
    });
    const show = (await created.json()) as Show;
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'host', path: `live/${show.uid}` });
    await page.getByRole('heading', { name: texts.page.title }).waitFor();
    // The recordings disk: its free space (this machine's disk is far from full).
    await expect
      .poll(async () => (await page.getByTestId('disk-space').textContent())?.trim())
      .toMatch(/^[\d.,]+\s?(GB|MB) free$/);

    const stream = (await (
      await fetch(`${baseUrl}/staff/stores/${STORE}/shows/${show.uid}/stream`, {
        headers: { authorization: `Bearer ${hostToken}` },
      })
    ).json()) as LiveStreamView;
    expect(stream.rtmpUrl).not.toBeNull();
    const port = new URL(stream.rtmpUrl as string).port;
    // ffmpeg's synthetic 3840×2160 at 60 fps in FLV1 (which the node would have to transcode).
    const file = join(scratch, 'uhd.flv');
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=3840x2160:rate=60:duration=1'],
      ...['-c:v', 'flv1', '-g', '60', '-b:v', '2M', '-f', 'flv', file],
    ]);
    const encoder = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re', '-stream_loop', '-1', '-i', file],
        ...['-c', 'copy', '-f', 'flv', `rtmp://127.0.0.1:${port}/live/${stream.streamKey}`],
      ],
      { stdio: 'ignore' },
    );
    // Refused at the protocol level: the looping encoder is disconnected.
    await new Promise((resolve) => encoder.once('exit', resolve));

    const refused = page.getByTestId('publish-refused');
    await refused.waitFor({ timeout: 15_000 });
    expect(await refused.getAttribute('role')).toBe('alert');
    expect(await refused.textContent()).toBe(
      texts.health.refused.replace(
        '{{message}}',
        'This 3840×2160 at 60 fps stream is not H.264, so this node would have to transcode it, and it transcodes at most 1920×1080 at 30 fps. Send H.264 (passed through at any size), or lower the resolution or frame rate.',
      ),
    );
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'go-live-refused-desktop', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'go-live-refused-phone', { fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it.runIf(canMount())(
    'says when the recordings disk is full while the show goes on (a server on a small disk)',
    async () => {
      // A server of its own whose recordings go to a real 24 MB file system.
      const diskDir = mkdtempSync(join(tmpdir(), 'vitrine-e2e-small-disk-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', diskDir]);
      const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-e2e-small-data-'));
      const smallAdminKey = 'e2e-small-disk-admin-key-0123456789';
      const server = await startServer({
        VITRINE_DATA_DIR: dataDir,
        VITRINE_LIVE_DIR: diskDir,
        VITRINE_ADMIN_KEY: smallAdminKey,
        VITRINE_DEMO_RETAILER_PORT: '-1',
      });
      let publisher: ChildProcess | null = null;
      try {
        const token = (await createStaffAccount(server.url, smallAdminKey, STORE, 'host')).session.idToken;
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const show = (await (
          await fetch(`${server.url}/staff/stores/${STORE}/shows`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              name: 'Full disk',
              startsAt: '2026-12-01T19:00',
              timeZone: 'Europe/Copenhagen',
            }),
          })
        ).json()) as Show;
        const streamUrl = `${server.url}/staff/stores/${STORE}/shows/${show.uid}/stream`;
        const stream = (await (await fetch(streamUrl, { headers })).json()) as LiveStreamView;
        const port = new URL(stream.rtmpUrl as string).port;
        publisher = publishTestStream(`rtmp://127.0.0.1:${port}/live/${stream.streamKey}`);
        await expect
          .poll(async () => ((await (await fetch(streamUrl, { headers })).json()) as LiveStreamView).state, {
            timeout: 20_000,
          })
          .toBe('receiving');
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
        page.on('pageerror', (error) => pageErrors.push(error.message));
        await openStudioAs(page, {
          baseUrl: server.url,
          adminKey: smallAdminKey,
          pageUid: STORE,
          role: 'host',
          path: `live/${show.uid}`,
        });
        // Before: a 24 MB disk is low, and the row says so.
        const diskRow = page.getByTestId('disk-space');
        await expect.poll(() => diskRow.getAttribute('class')).toBe('live-health__warn');

        // Something fills the disk to the last byte.
        const ballast = join(diskDir, 'ballast');
        const fd = openSync(ballast, 'w');
        try {
          for (;;) writeSync(fd, Buffer.alloc(256 * 1024, 1));
        } catch {
          // ENOSPC: full.
        } finally {
          closeSync(fd);
        }
        const alert = page.getByTestId('disk-full');
        await alert.waitFor({ timeout: 20_000 });
        expect(await alert.textContent()).toBe(texts.health.diskFull);
        expect(await axeFindings(page)).toEqual([]);
        await saveScreenshot(page, 'go-live-disk-full-desktop', { fullPage: true });
        await page.setViewportSize({ width: 390, height: 844 });
        expect(await axeFindings(page)).toEqual([]);
        await saveScreenshot(page, 'go-live-disk-full-phone', { fullPage: true });
        // The preview still plays new segments: the show goes on from memory.
        const before = await (await fetch(`${server.url}${stream.previewUrl}`)).text();
        await expect
          .poll(async () => (await (await fetch(`${server.url}${stream.previewUrl}`)).text()) !== before, {
            timeout: 10_000,
          })
          .toBe(true);
        await page.close();
        expect(pageErrors).toEqual([]);
      } finally {
        publisher?.kill('SIGKILL');
        await server.stop();
        spawnSync('umount', ['-l', diskDir]);
        rmSync(diskDir, { recursive: true, force: true });
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    SERVER_START_BOUND_MS + 120_000,
  );
});

/** Whether this process may mount a file system (root on Linux): the small-disk test needs one. */
function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'vitrine-mount-probe-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe]).status === 0;
  if (mounted) spawnSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
  return mounted;
}
