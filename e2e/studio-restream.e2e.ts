import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveStreamView, Show } from '@vitrine/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/test-support/free-port.ts';
import { publishTestStream } from '../apps/server/src/test-support/live-publisher.ts';
import { axeFindings } from './support/axe.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { openStudioAs } from './support/studio.ts';
import { startStudioHost } from './support/studio-host.ts';
import { bearerCall, testServer } from './support/test-server.ts';

// Issue 29 item 8 as a host sees it: on the go-live page of a live show, add a destination
// (a local RTMP receiver standing for YouTube), start it, see it sending with its figures, and
// a second destination nobody listens on failing with why; the saved key only masked.

const { baseUrl, adminKey } = testServer();
const STORE = 'demo-store';
const STREAM_KEY = 'e2e-receiver-key-0123456789';

const texts = webLocale('studio-restream/en') as {
  title: string;
  state: Record<string, string>;
  add: { label: string; serverUrl: string; streamKey: string; submit: string };
  list: { start: string; startLabel: string };
};

let browser: Browser;
let page: Page;
let hostToken: string;
let scratch: string;
const children: ChildProcess[] = [];
const pageErrors: string[] = [];

/** A call as the host. */
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) =>
  bearerCall<T>(hostToken, method, path, body);

function run(command: string, args: string[]) {
  const child = spawn(command, args, { stdio: 'ignore' });
  children.push(child);
  return child;
}

beforeAll(async () => {
  ({ browser, page, hostToken } = await startStudioHost(STORE, pageErrors));
  scratch = mkdtempSync(join(tmpdir(), 'vitrine-e2e-restream-'));
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('restreaming from the go-live page', () => {
  it('adds a destination, starts it and shows it sending; one nobody listens on fails with why', async () => {
    const show = await api<Show>('POST', `/staff/stores/${STORE}/shows`, {
      name: `Restream e2e ${Date.now()}`,
      startsAt: '2026-12-01T19:00',
      timeZone: 'Europe/Copenhagen',
    });
    const streamPath = `/staff/stores/${STORE}/shows/${show.uid}/stream`;
    const stream = await api<LiveStreamView>('GET', streamPath);
    // The show itself, published over RTMP by ffmpeg as OBS would.
    children.push(publishTestStream(`${stream.rtmpUrl}/${stream.streamKey}`));
    await expect
      .poll(async () => (await api<LiveStreamView>('GET', streamPath)).state, { timeout: 20_000 })
      .toBe('receiving');
    await api('POST', `${streamPath}/go-live`);

    const receiverPort = await freePort();
    run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-listen', '1'],
      ...['-i', `rtmp://127.0.0.1:${receiverPort}/app/${STREAM_KEY}`, '-c', 'copy', '-f', 'flv'],
      join(scratch, 'received.flv'),
    ]);

    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'host', path: `live/${show.uid}` });
    const section = page.getByRole('region', { name: texts.title });
    await section.waitFor();
    const add = async (label: string, serverUrl: string, key: string) => {
      await section.getByLabel(texts.add.label).fill(label);
      await section.getByLabel(texts.add.serverUrl).fill(serverUrl);
      await section.getByLabel(texts.add.streamKey).fill(key);
      await section.getByRole('button', { name: texts.add.submit }).click();
      await section.getByRole('heading', { name: label }).waitFor();
    };
    await add('Test platform', `rtmp://127.0.0.1:${receiverPort}/app`, STREAM_KEY);
    // Nobody listens on this one: it fails, says why, and is retried.
    await add(
      'Unreachable platform',
      `rtmp://127.0.0.1:${await freePort()}/app`,
      'unreachable-key-0123456789',
    );
    expect(await page.content()).not.toContain(STREAM_KEY);
    await expect.poll(() => section.getByText('key ••••6789').count()).toBe(2);

    for (const label of ['Test platform', 'Unreachable platform'])
      await section.getByRole('button', { name: texts.list.startLabel.replace('{{label}}', label) }).click();
    const badge = (label: string) =>
      section.getByRole('listitem', { name: label }).locator('.restream-state');
    await expect.poll(() => badge('Test platform').textContent(), { timeout: 30_000 }).toBe(texts.state.live);
    await expect
      .poll(() => badge('Unreachable platform').textContent(), { timeout: 30_000 })
      .toBe(texts.state.failed);
    await expect
      .poll(() => section.getByRole('listitem', { name: 'Unreachable platform' }).textContent())
      .toMatch(/Connection refused/);
    // What it sent, shown in the language's units.
    await expect
      .poll(() => section.getByRole('listitem', { name: 'Test platform' }).textContent(), { timeout: 15_000 })
      .toMatch(/kbit\/s/);

    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'restream-desktop', { fullPage: true });
    await saveScreenshot(section, 'restream-desktop-section');
    await page.setViewportSize({ width: 390, height: 844 });
    await section.scrollIntoViewIfNeeded();
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'restream-phone', { fullPage: true });
    await saveScreenshot(section, 'restream-phone-section');
    await page.setViewportSize({ width: 1280, height: 800 });

    await api('POST', `${streamPath}/end`);
    await expect
      .poll(() => section.locator('.restream-state').allTextContents(), { timeout: 20_000 })
      .toEqual([texts.state.stopped, texts.state.stopped]);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
