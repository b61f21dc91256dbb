import { LL_BLOCKING_TARGET_DURATIONS } from '@vitrine/domain';
import type { LiveStreamView } from '@vitrine/protocol';
import * as HLS from 'hls-parser';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../test-support/live-publisher.ts';
import { liveTestApp } from '../../test-support/live-test-app.ts';
import { isWholeFragment } from './recording-disk.ts';

// The default profile: viewers get the LL playlist at Go live.
const { app, host, pageUid, get, newShow, publishers, publishRtmp } = liveTestApp('vitrine-llhls-', {
  RTMP_PORT: '0',
  LIVE_RECONNECT_GRACE_MS: '20000',
});

HLS.setOptions({ strictMode: true });

/** Parses a media playlist in hls-parser's strict mode (it throws on any rule broken). */
function strict(text: string): HLS.types.MediaPlaylist {
  const parsed = HLS.parse(text);
  if (parsed.isMasterPlaylist) throw new Error('a master playlist where a media playlist was expected');
  return parsed as HLS.types.MediaPlaylist;
}

/** A moof+mdat pair and nothing else, whole. */
function isOnePart(bytes: Buffer): boolean {
  if (!isWholeFragment(bytes)) return false;
  const first = bytes.readUInt32BE(0);
  return (
    bytes.toString('latin1', 4, 8) === 'moof' &&
    bytes.toString('latin1', first + 4, first + 8) === 'mdat' &&
    first + bytes.readUInt32BE(first) === bytes.length
  );
}

const partsOf = (text: string) =>
  [...text.matchAll(/#EXT-X-PART:[^\n]*URI="([^"]+)"/g)].map((match) => match[1] ?? '');
const hintOf = (text: string) => /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="([^"]+)"/.exec(text)?.[1] ?? null;
const segmentCount = (text: string) => text.split('\n').filter((line) => /^r\d+-\d+\.m4s$/.test(line)).length;

/** The media sequence number and part index of the newest listed part. */
function lastPart(text: string): { msn: number; part: number } | null {
  const playlist = strict(text);
  const last = playlist.segments.at(-1);
  if (!last) return null;
  const open = last.parts.filter((part) => !part.hint);
  if (open.length > 0) return { msn: last.mediaSequenceNumber, part: open.length - 1 };
  const closed = playlist.segments.findLast((segment) => segment.parts.some((part) => !part.hint));
  return closed ? { msn: closed.mediaSequenceNumber, part: closed.parts.length - 1 } : null;
}

describe('LL-HLS from our packager', () => {
  let showUid: string;
  let view: LiveStreamView;
  let ll: string;
  const publish = () => publishRtmp(view.streamKey);

  it('goes live: ll.m3u8 has parts, server control and a preload hint, and passes strict mode', async () => {
    showUid = await newShow('LL show');
    const path = `/staff/stores/${pageUid()}/shows/${showUid}/stream`;
    view = (
      await app().server.inject({ method: 'GET', url: path, headers: host().headers })
    ).json() as LiveStreamView;
    expect(view.lowLatencyUrl).toBe(`/live/${showUid}/ll.m3u8`);
    // Nothing for viewers before Go live.
    expect((await get(view.lowLatencyUrl)).status).toBe(404);
    publish();
    await waitFor('a receiving stream', async () => {
      const state = (
        await app().server.inject({ method: 'GET', url: path, headers: host().headers })
      ).json() as LiveStreamView;
      return state.state === 'receiving';
    });
    const live = await app().server.inject({
      method: 'POST',
      url: `${path}/go-live`,
      headers: host().headers,
    });
    expect(live.statusCode, live.body).toBe(200);
    ll = view.lowLatencyUrl;
    const [event] = await app().services.events.eventsByIds([showUid]);
    expect(event?.event.cdnMp4VideoUrl).toBe(ll);
    const playlist = await waitFor('an LL playlist with two segments', async () => {
      const answer = await get(ll);
      return answer.status === 200 && segmentCount(answer.text) >= 2 ? answer.text : null;
    });
    const parsed = strict(playlist);
    expect(playlist).toMatch(
      /#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=6\.0,PART-HOLD-BACK=0\.702/,
    );
    expect(playlist).toContain('#EXT-X-PART-INF:PART-TARGET=0.234');
    expect(playlist).toContain('#EXT-X-PROGRAM-DATE-TIME:');
    expect(playlist).toMatch(/INDEPENDENT=YES/);
    expect(hintOf(playlist)).toMatch(/^r1-\d{5}\.\d+\.m4s$/);
    expect(parsed.partTargetDuration).toBeCloseTo(0.234);
    // The regular playlist stays, from the same segments.
    const regular = await get(view.liveUrl);
    expect(regular.status).toBe(200);
    strict(regular.text);
    expect(regular.text).not.toContain('#EXT-X-PART');
  });

  it('never lists a part before its bytes are whole, and every playlist passes strict mode', async () => {
    const seen = new Set<string>();
    const until = Date.now() + 4000;
    let checked = 0;
    while (Date.now() < until) {
      const { text } = await get(ll);
      strict(text);
      for (const uri of partsOf(text)) {
        if (seen.has(uri)) continue;
        seen.add(uri);
        // Read at once: listed means whole.
        const part = await get(`/live/${showUid}/${uri}`);
        expect(part.status, uri).toBe(200);
        expect(isOnePart(part.raw), `${uri} is one whole moof+mdat`).toBe(true);
        checked += 1;
      }
      strict((await get(view.liveUrl)).text);
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('answers a blocking reload as soon as the asked part exists', async () => {
    const waits: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const { text } = await get(ll);
      const last = lastPart(text);
      expect(last).not.toBeNull();
      const msn = last?.msn ?? 0;
      const next = (last?.part ?? 0) + 1;
      const started = Date.now();
      const answer = await get(`${ll}?_HLS_msn=${msn}&_HLS_part=${next}`);
      const waited = Date.now() - started;
      waits.push(waited);
      expect(answer.status, answer.text).toBe(200);
      const parsed = strict(answer.text);
      const segment = parsed.segments.find((each) => each.mediaSequenceNumber === msn);
      const asked = segment?.parts.filter((part) => !part.hint).length ?? 0;
      // Either the asked part is listed, or the segment closed before it (the next one has begun).
      const closed = parsed.segments.some((each) => each.mediaSequenceNumber > msn);
      expect(asked > next || closed, answer.text).toBe(true);
      // As soon as it exists: no later than a part or two after it.
      const newest = lastPart(answer.text);
      const beyond = newest && newest.msn === msn ? newest.part - next : 0;
      expect(beyond).toBeLessThanOrEqual(2);
      expect(waited).toBeLessThan(3000);
    }
    console.info(`blocking reloads for the next part answered after ${waits.join(', ')} ms`);
  });

  it('serves a hinted part once it is whole, and says at once when its segment closed without it', async () => {
    // The hint names the open segment's next part; when a keyframe starts the next segment
    // instead, that part never comes, and the answer is a 404 as soon as the segment closes
    // (not after the blocking bound). Within a few hints one lands inside a segment.
    let served = 0;
    for (let tries = 0; tries < 6 && served === 0; tries++) {
      const hint = hintOf((await get(ll)).text);
      expect(hint).not.toBeNull();
      const asked = performance.now();
      const part = await get(`/live/${showUid}/${hint}`);
      if (part.status === 200) {
        expect(isOnePart(part.raw)).toBe(true);
        served += 1;
        continue;
      }
      expect(part.status).toBe(404);
      // Its segment is whole in the playlist now, with fewer parts than the hint's index.
      const segment = (hint as string).replace(/\.[0-9]+\.m4s$/, '.m4s');
      expect((await get(ll)).text.split('\n')).toContain(segment);
      expect(performance.now() - asked).toBeLessThan(LL_BLOCKING_TARGET_DURATIONS * 1000);
    }
    expect(served).toBe(1);
  });

  it('refuses malformed and too-far requests with 400 and a message', async () => {
    const bad = await get(`${ll}?_HLS_msn=abc`);
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/_HLS_msn/);
    const partAlone = await get(`${ll}?_HLS_part=2`);
    expect(partAlone.status).toBe(400);
    expect(partAlone.text).toMatch(/_HLS_part needs _HLS_msn/);
    const last = lastPart((await get(ll)).text);
    const far = await get(`${ll}?_HLS_msn=${(last?.msn ?? 0) + 10}`);
    expect(far.status).toBe(400);
    expect(far.text).toMatch(/live edge/);
    expect((await get(`${ll}?_HLS_skip=MAYBE`)).status).toBe(400);
  });

  it('gives delta updates once the playlist is longer than the skip boundary', async () => {
    const full = await waitFor('eight segments', async () => {
      const { text } = await get(ll);
      return segmentCount(text) >= 8 ? text : null;
    });
    strict(full);
    const delta = await get(`${ll}?_HLS_skip=YES`);
    expect(delta.status).toBe(200);
    const parsed = strict(delta.text);
    expect(parsed.skip).toBeGreaterThan(0);
    expect(segmentCount(delta.text)).toBeLessThan(segmentCount(full) + 1);
  });

  it('stays valid after the publisher reconnects (a blocking request meanwhile gives up with 503): a discontinuity, parts of the new run', async () => {
    const first = publishers.at(-1);
    first?.kill('SIGKILL');
    await first?.stopped;
    // No packager runs: no part is listed, and a request for the next segment gives up (503).
    const idle = await waitFor('the run to end', async () => {
      const { text } = await get(ll);
      return text.includes('#EXT-X-PRELOAD-HINT') ? null : text;
    });
    strict(idle);
    const next = (strict(idle).segments.at(-1)?.mediaSequenceNumber ?? 0) + 1;
    const started = Date.now();
    const gaveUp = await get(`${ll}?_HLS_msn=${next}`);
    expect(gaveUp.status, gaveUp.text).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    publish();
    const after = await waitFor('the new run in the LL playlist', async () => {
      const { text } = await get(ll);
      return text.includes('#EXT-X-DISCONTINUITY\n') && partsOf(text).some((uri) => uri.startsWith('r2-'))
        ? text
        : null;
    });
    strict(after);
    const regular = await waitFor('the new run in the live playlist', async () => {
      const { text } = await get(view.liveUrl);
      return text.includes('#EXT-X-DISCONTINUITY') ? text : null;
    });
    strict(regular);
    // Across the change, every LL playlist stays strict and its new parts whole.
    const until = Date.now() + 3000;
    while (Date.now() < until) {
      const { text } = await get(ll);
      strict(text);
      const newest = partsOf(text).at(-1);
      if (newest) expect(isOnePart((await get(`/live/${showUid}/${newest}`)).raw)).toBe(true);
      strict((await get(`${ll}?_HLS_skip=YES`)).text);
    }
  });

  it('ends: the LL playlist closes with ENDLIST and no parts', async () => {
    const path = `/staff/stores/${pageUid()}/shows/${showUid}/stream`;
    const ended = await app().server.inject({ method: 'POST', url: `${path}/end`, headers: host().headers });
    expect(ended.statusCode, ended.body).toBe(200);
    const text = await waitFor('the ended LL playlist', async () => {
      const answer = await get(ll);
      return answer.status === 200 && answer.text.includes('#EXT-X-ENDLIST') ? answer.text : null;
    });
    strict(text);
    expect(text).not.toContain('#EXT-X-PRELOAD-HINT');
    // A blocking request on an ended show is answered at once.
    expect((await get(`${ll}?_HLS_msn=999999`)).status).toBe(200);
  });
});
