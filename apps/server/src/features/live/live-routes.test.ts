import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveStreamView } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishTestStream, waitFor } from '../../test-support/live-publisher.ts';
import {
  createTestShow,
  createTestStore,
  signInStaff,
  type TestStaffMember,
} from '../../test-support/studio-staff.ts';
import { openTestApp } from '../../test-support/test-app.ts';

/**
 * The HLS files over real HTTP: the path viewers take is answered before Fastify (live-routes.ts
 * `serveHlsBeforeFastify`), so these requests go through a listening socket, not `inject`.
 */
let app: Awaited<ReturnType<typeof openTestApp>>;
let host: TestStaffMember;
let pageUid: string;
let liveDir: string;
let base: string;
let showUid: string;
let stream: LiveStreamView;
let publisher: ReturnType<typeof publishTestStream>;

const call = async (suffix: string, method: 'GET' | 'POST') =>
  (
    await app.server.inject({
      method,
      url: `/staff/stores/${pageUid}/shows/${showUid}/stream${suffix}`,
      headers: host.headers,
    })
  ).json() as LiveStreamView;

const segmentsOf = (playlist: string) => playlist.split('\n').filter((line) => /^r\d+-\d+\.m4s/.test(line));

beforeAll(async () => {
  liveDir = mkdtempSync(join(tmpdir(), 'vitrine-live-routes-'));
  app = await openTestApp({ env: { RTMP_PORT: '0', VITRINE_LIVE_DIR: liveDir } });
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  pageUid = await createTestStore(app);
  host = await signInStaff(app, pageUid, 'host');
  showUid = await createTestShow(app, pageUid, host, 'Served', { visibility: 'draft' });
  stream = await call('', 'GET');
  publisher = publishTestStream(
    `rtmp://127.0.0.1:${app.services.live.ingestPorts().rtmpPort}/live/${stream.streamKey}`,
  );
  await waitFor('the preview with a segment', async () => {
    const response = await fetch(`${base}${stream.previewUrl}`);
    return response.ok && segmentsOf(await response.text()).length > 0;
  });
});

afterAll(async () => {
  publisher?.kill('SIGKILL');
  await app?.close();
  rmSync(liveDir, { recursive: true, force: true });
});

describe('the HLS files over HTTP', () => {
  it('keeps the show from viewers before Go live, and gives the studio its preview', async () => {
    expect((await fetch(`${base}/live/${showUid}/live.m3u8`)).status).toBe(404);
    const preview = await fetch(`${base}${stream.previewUrl}`);
    expect(preview.status).toBe(200);
    const signed = segmentsOf(await preview.text());
    expect(signed[0]).toMatch(/^r1-\d+\.m4s\?preview=/);
    const previewSegment = await fetch(`${base}/live/${showUid}/${signed[0]}`);
    expect(previewSegment.status).toBe(200);
    // Opened by the studio's token: never `public, immutable`, whatever a CDN in front would keep.
    expect(previewSegment.headers.get('cache-control')).toBe('private, no-cache');
    expect((await fetch(`${base}${stream.previewUrl}`)).headers.get('cache-control')).toBe(
      'private, no-cache',
    );
    // Without the token, a segment from before Go live is not given.
    expect((await fetch(`${base}/live/${showUid}/${signed[0]?.split('?')[0]}`)).status).toBe(404);
    // A wrong token is no token.
    const wrong = await fetch(`${base}/live/${showUid}/live.m3u8?preview=${'A'.repeat(32)}`);
    expect(wrong.status).toBe(404);
  });

  it('serves the live playlist uncached with an ETag, and answers 304 to a revalidation', async () => {
    await call('/go-live', 'POST');
    const playlistUrl = `${base}/live/${showUid}/live.m3u8`;
    const first = await waitFor('a live playlist with segments', async () => {
      const response = await fetch(playlistUrl);
      const text = await response.text();
      return response.ok && segmentsOf(text).length > 0 ? { response, text } : null;
    });
    // Kept a second by players and a CDN: one request per second and edge reaches the node.
    expect(first.response.headers.get('cache-control')).toBe('public, max-age=1, s-maxage=1');
    expect(first.response.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(first.response.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Number(first.response.headers.get('content-length'))).toBe(Buffer.byteLength(first.text));
    const etag = first.response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);

    // The same bytes as the route Fastify answers (tests' `inject`), from the same responder.
    const injected = await app.server.inject({ method: 'GET', url: `/live/${showUid}/live.m3u8` });
    const revalidated = await fetch(playlistUrl, { headers: { 'if-none-match': etag } });
    if (revalidated.status === 304) {
      expect(await revalidated.text()).toBe('');
      expect(revalidated.headers.get('etag')).toBe(etag);
      expect(revalidated.headers.get('cache-control')).toBe('public, max-age=1, s-maxage=1');
      expect(injected.headers.etag).toBe(etag);
      expect(injected.body).toBe(first.text);
    } else {
      // A segment arrived in between: the playlist changed, and so did its ETag.
      expect(revalidated.status).toBe(200);
      expect(revalidated.headers.get('etag')).not.toBe(etag);
    }
    // Once the playlist moves on, the old ETag gets the new playlist.
    const moved = await waitFor('the next playlist', async () => {
      const response = await fetch(playlistUrl, { headers: { 'if-none-match': etag } });
      return response.status === 200 ? response : null;
    });
    expect(moved.headers.get('etag')).not.toBe(etag);
    expect(segmentsOf(await moved.text()).length).toBeGreaterThan(0);
  });

  it('serves segments immutable, with their length, to GET and HEAD', async () => {
    const playlist = await (await fetch(`${base}/live/${showUid}/live.m3u8`)).text();
    const newest = segmentsOf(playlist).at(-1) as string;
    const segment = await fetch(`${base}/live/${showUid}/${newest}`);
    expect(segment.status).toBe(200);
    expect(segment.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(segment.headers.get('content-type')).toBe('video/iso.segment');
    expect(segment.headers.get('access-control-allow-origin')).toBe('*');
    const bytes = Buffer.from(await segment.arrayBuffer());
    expect(Number(segment.headers.get('content-length'))).toBe(bytes.length);
    const head = await fetch(`${base}/live/${showUid}/${newest}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect(await head.text()).toBe('');
    const init = await fetch(`${base}/live/${showUid}/${newest.split('-')[0]}-init.mp4`);
    expect(init.headers.get('content-type')).toBe('video/mp4');
  });

  it('answers 404 (as JSON, from the regular route) to anything that is not a file of a show', async () => {
    // Files in the show's folder that the recording does not list (e.g. one a full disk cut short).
    writeFileSync(join(liveDir, showUid, 'r7-00001.m4s'), 'not a whole segment');
    writeFileSync(join(liveDir, showUid, 'r7-init.mp4'), 'not an init segment');
    const attempts = [
      `/live/${showUid}/r9-00001.m4s`,
      `/live/${showUid}/r7-00001.m4s`,
      `/live/${showUid}/r7-init.mp4`,
      `/live/${showUid}/..%2F..%2F..%2Fetc%2Fpasswd`,
      `/live/${showUid}/../../../etc/passwd`,
      `/live/..%2F${showUid}/live.m3u8`,
      `/live/${showUid}/segments.ndjson`,
      '/live/nope/live.m3u8',
      `/live/${showUid}/live.m3u8/extra`,
    ];
    for (const path of attempts) {
      const response = await fetch(`${base}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.text()).not.toContain('root:');
    }
    // A miss of a show's file is kept a second at most (a CDN asks again soon).
    for (const path of [
      `/live/${showUid}/r9-00001.m4s`,
      `/live/${showUid}/r7-init.mp4`,
      '/live/nope/live.m3u8',
    ]) {
      const response = await fetch(`${base}${path}`);
      expect({ path, cacheControl: response.headers.get('cache-control') }).toEqual({
        path,
        cacheControl: 'public, max-age=1, s-maxage=1',
      });
    }
    // Not an HLS read: other methods go on to Fastify.
    const post = await fetch(`${base}/live/${showUid}/live.m3u8`, { method: 'POST' });
    expect(post.status).toBe(404);
  });
});
