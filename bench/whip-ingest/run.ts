/**
 * WHIP ingest benchmark (issue 15): what a show published over WHIP costs the server process
 * (werift: ICE, DTLS, SRTP decryption, forwarding the RTP to ffmpeg) beside the same show
 * published over RTMP (the RTMP ingest), the baseline, in the same run; and how long each
 * takes from the publisher's start to the first HLS segment. See README.md.
 *
 *   node --import tsx bench/whip-ingest/run.ts [--seconds 10]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { clock, installCleanup, readCpuSeconds, sleep, stopChild, track } from '../realtime-fanout/proc.ts';
import { REPO, startVitrineWithIngest } from '../support/server-process.ts';
import { H264_LIVE_VIDEO, rtmpTestPatternArgs } from '../support/test-publisher.ts';

installCleanup();
const ADMIN_KEY = 'bench-whip-admin-key-0123456789-abc';
const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '10' } } });
const seconds = Number(args.seconds);

interface StreamView {
  streamKey: string;
  previewUrl: string;
  health: { bitrateKbps: number | null; framesPerSecond: number | null; videoPassthrough: boolean } | null;
}

const startServer = () =>
  startVitrineWithIngest('whip', { VITRINE_ADMIN_KEY: ADMIN_KEY, VITRINE_DEMO_LIVE: '0' });

const auth = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };

async function newShow(base: string, name: string) {
  const { uid } = (await fetch(`${base}/staff/stores/demo-store/shows`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name, startsAt: '2026-10-01T19:00', timeZone: 'Europe/Copenhagen' }),
  }).then((response) => response.json())) as { uid: string };
  const view = () =>
    fetch(`${base}/staff/stores/demo-store/shows/${uid}/stream`, { headers: auth }).then(
      (response) => response.json() as Promise<StreamView>,
    );
  return { uid, view, key: (await view()).streamKey };
}

async function measure(protocol: 'rtmp' | 'whip', server: Awaited<ReturnType<typeof startServer>>) {
  const show = await newShow(server.url, `Bench ${protocol}`);
  const started = clock();
  let publisher: ChildProcess;
  if (protocol === 'rtmp') {
    // The baseline: ffmpeg publishing 720p30 H.264 (2.5 Mbit/s) over RTMP, as OBS would.
    publisher = spawn(
      'ffmpeg',
      rtmpTestPatternArgs(H264_LIVE_VIDEO, `rtmp://127.0.0.1:${server.rtmpPort}/live/${show.key}`),
      { stdio: 'ignore' },
    );
  } else {
    publisher = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/whip-ingest/publisher.ts', `${server.url}/whip`, show.key],
      { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  track(publisher);
  let firstSegmentMs: number | null = null;
  for (let tries = 0; tries < 300 && firstSegmentMs === null; tries += 1) {
    const playlist = await fetch(new URL((await show.view()).previewUrl, server.url)).then(
      (response) => (response.ok ? response.text() : ''),
      () => '',
    );
    if (playlist.includes('.m4s')) firstSegmentMs = Math.round(clock() - started);
    else await sleep(100);
  }
  if (firstSegmentMs === null) throw new Error(`no segment from the ${protocol} publisher`);
  await sleep(3000);
  const pid = server.child.pid as number;
  const before = { cpu: readCpuSeconds(pid) ?? 0, at: clock() };
  await sleep(seconds * 1000);
  const after = { cpu: readCpuSeconds(pid) ?? 0, at: clock() };
  const health = (await show.view()).health;
  await stopChild(publisher);
  const cpuPercent = Math.round(((after.cpu - before.cpu) / ((after.at - before.at) / 1000)) * 1000) / 10;
  const kbps = health?.bitrateKbps ?? null;
  return {
    protocol,
    firstSegmentMs,
    serverCpuPercentOfOneCore: cpuPercent,
    incomingKbps: kbps,
    serverCpuPercentPerMbps: kbps ? Math.round((cpuPercent / (kbps / 1000)) * 10) / 10 : null,
    videoPassthrough: health?.videoPassthrough ?? null,
  };
}

const server = await startServer();
// The idle server's own CPU over the same window, to subtract by eye.
const idleBefore = { cpu: readCpuSeconds(server.child.pid as number) ?? 0, at: clock() };
await sleep(seconds * 1000);
const idleCpu =
  Math.round(
    (((readCpuSeconds(server.child.pid as number) ?? 0) - idleBefore.cpu) /
      ((clock() - idleBefore.at) / 1000)) *
      1000,
  ) / 10;
const rtmp = await measure('rtmp', server);
const whip = await measure('whip', server);
await stopChild(server.child);
process.stdout.write(
  `${JSON.stringify({ bench: 'whip-ingest', seconds, cores: (await import('node:os')).cpus().length, idleServerCpuPercent: idleCpu, baseline: rtmp, whip })}\n`,
);
process.exit(0);
