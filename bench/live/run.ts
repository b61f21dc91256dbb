/**
 * Live video benchmark (issue 15): how many HLS viewers one node serves, beside Debian's nginx
 * serving the same files in the same run (the baseline), and the CPU one live show costs
 * (H.264 passed through, and a 720p transcode). See README.md.
 *
 *   node --import tsx bench/live/run.ts [--viewers 2000,10000] [--seconds 10] [--part serving,cpu]
 *     [--nginx /usr/sbin/nginx] [--wrk /usr/bin/wrk] [--ll-viewers 2000] (with --part ll-viewers)
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { Histogram } from '../realtime-fanout/histogram.ts';
import {
  clock,
  freePort,
  installCleanup,
  readCpuSeconds,
  sleep,
  stopChild,
  track,
  trackTempDir,
} from '../realtime-fanout/proc.ts';
import { startVitrineWithIngest } from '../support/server-process.ts';
import { H264_LIVE_VIDEO, rtmpTestPatternArgs } from '../support/test-publisher.ts';
import { nextBlockingRequest } from './ll-playlist.ts';

installCleanup();
const execFileAsync = promisify(execFile);
const ADMIN_KEY = 'bench-live-admin-key-0123456789-abc';
const DEMO_SHOW = 'demo-autumn-living';

const { values: args } = parseArgs({
  options: {
    viewers: { type: 'string', default: '2000,10000' },
    'll-viewers': { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '10' },
    part: { type: 'string', default: 'serving,cpu' },
    nginx: { type: 'string', default: '/usr/sbin/nginx' },
    wrk: { type: 'string', default: '/usr/bin/wrk' },
  },
});
const seconds = Number(args.seconds);
const parts = new Set(args.part.split(','));

// ── the server ────────────────────────────────────────────────────────────────

interface Server {
  url: string;
  dataDir: string;
  child: ChildProcess;
  rtmpPort: number;
}

const startServer = (env: Record<string, string>): Promise<Server> =>
  startVitrineWithIngest('live', { VITRINE_ADMIN_KEY: ADMIN_KEY, ...env });

const segmentsOf = (playlist: string) => playlist.split('\n').filter((line) => line.endsWith('.m4s'));

// ── serving: simulated viewers ───────────────────────────────────────────────

interface LoadResult {
  target: string;
  viewers: number;
  offeredPerSecond: number;
  /** What the load generator managed to send: below `offeredPerSecond`, it is the limit itself. */
  sentPerSecond: number;
  completedPerSecond: number;
  errors: number;
  p50Ms: number | null;
  p99Ms: number | null;
}

/**
 * Open-loop load of `viewers` HLS viewers: each asks for the live playlist and the newest segment
 * once a second (1-second segments), spread evenly over the second, on keep-alive connections.
 * Latency counts from the moment a request was due, so a server that falls behind shows it.
 */
async function simulateViewers(
  target: string,
  base: string,
  viewers: number,
  latestSegment: () => string,
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: Math.min(viewers, 1000) });
  const histogram = new Histogram();
  const perSecond = viewers * 2;
  let completed = 0;
  let errors = 0;
  let sent = 0;
  const started = clock();
  const end = started + seconds * 1000;
  const inFlight = new Set<Promise<void>>();
  const get = (path: string, due: number) => {
    const done = new Promise<void>((resolve) => {
      const req = request(`${base}${path}`, { agent }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode === 200) {
            completed += 1;
            histogram.record(clock() - due);
          } else errors += 1;
          resolve();
        });
      });
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end();
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  while (clock() < end) {
    const now = clock();
    const due = Math.floor(((now - started) / 1000) * perSecond);
    for (; sent < due; sent += 1) {
      const dueAt = started + (sent / perSecond) * 1000;
      get(sent % 2 === 0 ? '/live.m3u8' : `/${latestSegment()}`, dueAt);
    }
    await sleep(5);
  }
  await Promise.all(inFlight);
  agent.destroy();
  return {
    target,
    viewers,
    offeredPerSecond: perSecond,
    sentPerSecond: Math.round(sent / seconds),
    completedPerSecond: Math.round(completed / seconds),
    errors,
    p50Ms: round(histogram.quantile(0.5)),
    p99Ms: round(histogram.quantile(0.99)),
  };
}

const round = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/** Debian's nginx serving the show's recording folder, configured as docs/operations.md says. */
function startNginx(root: string): Promise<{ url: string; child: ChildProcess } | null> {
  return runNginx(
    'vitrine-bench-nginx-',
    (_dir, port) => `http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  types { application/vnd.apple.mpegurl m3u8; video/iso.segment m4s; video/mp4 mp4; }
  server {
    listen 127.0.0.1:${port};
    location /live/${DEMO_SHOW}/ {
      alias ${root}/;
      location ~ \\.m3u8$ { add_header Cache-Control no-cache; }
      location ~ \\.(m4s|mp4)$ { add_header Cache-Control "public, max-age=31536000, immutable"; }
    }
  }
}`,
  );
}

/**
 * Debian's nginx in front of Vitrine with the deploy recipe's /live/ cache (deploy/nginx/
 * vitrine.conf): playlists kept a second, segments for good, one request at a time per file to the
 * server (proxy_cache_lock). What a deployment serves viewers with.
 */
function startNginxInFront(upstream: string): Promise<{ url: string; child: ChildProcess } | null> {
  const cache = `proxy_cache live; proxy_cache_key $scheme$proxy_host$request_uri; proxy_cache_lock on;`;
  return runNginx(
    'vitrine-bench-nginx-front-',
    (dir, port) => `http {
  access_log off;
  keepalive_requests 100000;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=live:10m max_size=1g inactive=1d use_temp_path=off;
  upstream vitrine { server ${new URL(upstream).host}; keepalive 32; }
  server {
    listen 127.0.0.1:${port};
    location /live/ {
      proxy_pass http://vitrine; proxy_http_version 1.1; proxy_set_header Connection "";
      ${cache} proxy_cache_lock_timeout 5s; proxy_cache_valid 200 1s; proxy_cache_revalidate on;
      proxy_cache_use_stale updating; proxy_ignore_headers Cache-Control;
      location ~ \\.(m4s|mp4)$ {
        proxy_pass http://vitrine; proxy_http_version 1.1; proxy_set_header Connection "";
        ${cache} proxy_cache_valid 200 365d;
      }
    }
  }
}`,
  );
}

/**
 * nginx (when installed) in a temporary folder of its own (`prefix`), its `http` block written for
 * that folder and a free port, once it answers there (null if it never does).
 */
async function runNginx(
  prefix: string,
  http: (dir: string, port: number) => string,
): Promise<{ url: string; child: ChildProcess } | null> {
  if (!existsSync(args.nginx)) return null;
  const dir = trackTempDir(mkdtempSync(join(tmpdir(), prefix)));
  const port = await freePort();
  writeFileSync(
    join(dir, 'nginx.conf'),
    `user root;
worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 16384; }
${http(dir, port)}
`,
  );
  const child = track(
    spawn(args.nginx, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' }),
  );
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 40; tries += 1) {
    if ((await fetch(`${url}/live/${DEMO_SHOW}/live.m3u8`).catch(() => null))?.ok) return { url, child };
    await sleep(100);
  }
  await stopChild(child);
  return null;
}

/** The pids of a process and its children (nginx's workers, the server's media worker). */
function processTree(pid: number): number[] {
  const children = (() => {
    try {
      return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  })();
  // ffmpeg runs are the packagers: the same for both targets (nginx serves what they write).
  const own = children.filter((child) => !/ffmpeg/.test(readCommand(child)));
  return [pid, ...own];
}

function readCommand(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * wrk's closed-loop maximum (256 connections, 2 threads) on one URL, when wrk is installed, and
 * the CPU the serving processes (`pids`) spent per thousand answers meanwhile.
 */
async function wrkMax(
  url: string,
  pids: number[],
): Promise<{ requestsPerSecond: number; p99Ms: number | null; cpuMsPerThousand: number | null } | null> {
  if (!existsSync(args.wrk)) return null;
  const cpu = () => pids.reduce((sum, pid) => sum + (readCpuSeconds(pid) ?? 0), 0);
  const before = cpu();
  // Asynchronously: the playlist mirror (and `latest`) keep running meanwhile.
  const { stdout: output } = await execFileAsync(
    args.wrk,
    ['-t2', '-c256', `-d${seconds}s`, '--latency', url],
    {
      encoding: 'utf8',
    },
  );
  const spent = cpu() - before;
  const rate = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN);
  const total = Number(/([\d]+) requests in/.exec(output)?.[1] ?? Number.NaN);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(output);
  const scale = { us: 0.001, ms: 1, s: 1000 } as const;
  return {
    requestsPerSecond: Math.round(rate),
    p99Ms: p99 ? round(Number(p99[1]) * scale[p99[2] as keyof typeof scale]) : null,
    cpuMsPerThousand: total > 0 ? round(((spent * 1000) / total) * 1000) : null,
  };
}

async function serving() {
  const server = await startServer({ VITRINE_DEMO_LIVE: '1' });
  const base = `${server.url}/live/${DEMO_SHOW}`;
  let playlist = '';
  const deadline = Date.now() + 60_000;
  while (segmentsOf(playlist).length < 4) {
    if (Date.now() > deadline) throw new Error('the demo live show did not start streaming');
    playlist = await fetch(`${base}/live.m3u8`).then((response) => (response.ok ? response.text() : ''));
    await sleep(250);
  }
  // nginx serves the same folder; our composed playlist is mirrored into it twice a second.
  const root = join(server.dataDir, 'live', DEMO_SHOW);
  let latest = segmentsOf(playlist).at(-1) ?? '';
  let mirroring = true;
  const mirror = (async () => {
    while (mirroring) {
      const text = await fetch(`${base}/live.m3u8`)
        .then((response) => response.text())
        .catch(() => '');
      if (segmentsOf(text).length) {
        latest = segmentsOf(text).at(-1) ?? latest;
        writeFileSync(join(root, 'live.m3u8.tmp'), text);
        renameSync(join(root, 'live.m3u8.tmp'), join(root, 'live.m3u8'));
      }
      await sleep(500);
    }
  })();
  await sleep(600);
  const nginx = await startNginx(root);
  if (!nginx) process.stderr.write(`nginx not found at ${args.nginx}: no baseline (apt-get install nginx)\n`);

  const results: LoadResult[] = [];
  for (const viewers of args.viewers.split(',').map(Number)) {
    results.push(await simulateViewers('vitrine', base, viewers, () => latest));
    if (nginx)
      results.push(await simulateViewers('nginx', `${nginx.url}/live/${DEMO_SHOW}`, viewers, () => latest));
  }
  // Each wrk run asks for the newest segment at its start: the live edge viewers ask for.
  // The server's CPU is its own and its media worker's (LIVE_MEDIA=child, the default).
  const vitrinePids = processTree(server.child.pid as number);
  const nginxPids = nginx ? processTree(nginx.child.pid as number) : [];
  const maxima = {
    vitrine: {
      playlist: await wrkMax(`${base}/live.m3u8`, vitrinePids),
      segment: await wrkMax(`${base}/${latest}`, vitrinePids),
    },
    nginx: nginx
      ? {
          playlist: await wrkMax(`${nginx.url}/live/${DEMO_SHOW}/live.m3u8`, nginxPids),
          segment: await wrkMax(`${nginx.url}/live/${DEMO_SHOW}/${latest}`, nginxPids),
        }
      : null,
  };
  // The deploy recipe's layout: nginx's cache in front of Vitrine; its CPU is both's.
  const front = await startNginxInFront(server.url);
  const frontPids = front ? [...processTree(front.child.pid as number), ...vitrinePids] : [];
  const inFront = front
    ? {
        playlist: await wrkMax(`${front.url}/live/${DEMO_SHOW}/live.m3u8`, frontPids),
        segment: await wrkMax(`${front.url}/live/${DEMO_SHOW}/${latest}`, frontPids),
      }
    : null;
  mirroring = false;
  await mirror;
  if (front) await stopChild(front.child);
  if (nginx) await stopChild(nginx.child);
  await stopChild(server.child);
  // Vitrine's share of nginx's throughput, per load: the goal is at least 0.5.
  const share = (ours: number | undefined, theirs: number | undefined) =>
    ours !== undefined && theirs ? Math.round((ours / theirs) * 100) / 100 : null;
  const ofNginx = {
    viewers: Object.fromEntries(
      args.viewers
        .split(',')
        .map((viewers) => [
          viewers,
          share(
            results.find((result) => result.target === 'vitrine' && result.viewers === Number(viewers))
              ?.completedPerSecond,
            results.find((result) => result.target === 'nginx' && result.viewers === Number(viewers))
              ?.completedPerSecond,
          ),
        ]),
    ),
    closedLoopPlaylist: share(
      maxima.vitrine.playlist?.requestsPerSecond,
      maxima.nginx?.playlist?.requestsPerSecond,
    ),
    closedLoopSegment: share(
      maxima.vitrine.segment?.requestsPerSecond,
      maxima.nginx?.segment?.requestsPerSecond,
    ),
  };
  // CPU per answer, Vitrine's over nginx's: the goal is at most 2.
  const cpuRatio = (ours: number | null | undefined, theirs: number | null | undefined) =>
    ours != null && theirs ? Math.round((ours / theirs) * 100) / 100 : null;
  const cpuPerAnswerOfNginx = {
    playlist: cpuRatio(maxima.vitrine.playlist?.cpuMsPerThousand, maxima.nginx?.playlist?.cpuMsPerThousand),
    segment: cpuRatio(maxima.vitrine.segment?.cpuMsPerThousand, maxima.nginx?.segment?.cpuMsPerThousand),
  };
  const behindNginx = inFront
    ? {
        closedLoopMax: inFront,
        shareOfNginx: {
          playlist: share(inFront.playlist?.requestsPerSecond, maxima.nginx?.playlist?.requestsPerSecond),
          segment: share(inFront.segment?.requestsPerSecond, maxima.nginx?.segment?.requestsPerSecond),
        },
        cpuPerAnswerOfNginx: {
          playlist: cpuRatio(inFront.playlist?.cpuMsPerThousand, maxima.nginx?.playlist?.cpuMsPerThousand),
          segment: cpuRatio(inFront.segment?.cpuMsPerThousand, maxima.nginx?.segment?.cpuMsPerThousand),
        },
      }
    : null;
  return {
    viewers: results,
    closedLoopMax: maxima,
    vitrineShareOfNginx: ofNginx,
    cpuPerAnswerOfNginx,
    // Vitrine behind the deploy recipe's nginx cache, against nginx serving the files itself.
    deployRecipe: behindNginx,
    serverProcesses: vitrinePids.length,
  };
}

// ── LL-HLS viewers: blocking playlist reloads ────────────────────────────────

interface LowLatencyLoadResult {
  viewers: number;
  seconds: number;
  /** Blocking playlist answers a second (each viewer has one waiting at a time, as players do). */
  playlistsPerSecond: number;
  partsPerSecond: number;
  errors: number;
  /**
   * From asking for the next part to the playlist that lists it: about one part (~0.2 s) when the
   * server keeps up with its viewers; more is how late it hands new parts on under this load.
   */
  blockingAnswerP50Ms: number | null;
  blockingAnswerP99Ms: number | null;
  serverCpuPercentOfOneCore: number;
}

/**
 * `viewers` LL-HLS players on the demo live show's `ll.m3u8`, closed loop as hls.js runs it: each
 * holds one blocking reload for the next part (`_HLS_msn`, `_HLS_part`, `_HLS_skip=YES` for delta
 * updates), loads the newest part listed, and asks for the one after. The answer time of a
 * blocking reload is the time from asking to the part's appearance, so its quantiles say how far
 * behind the packager's output the server hands parts on under this load (about a part's duration
 * when it keeps up). With the server's CPU.
 */
async function lowLatencyViewers(viewers: number): Promise<LowLatencyLoadResult> {
  const server = await startServer({ VITRINE_DEMO_LIVE: '1' });
  const base = `${server.url}/live/${DEMO_SHOW}`;
  let first: ReturnType<typeof nextBlockingRequest> = null;
  const deadline = Date.now() + 60_000;
  while (!first?.newestPart) {
    if (Date.now() > deadline) throw new Error('the demo live show did not start streaming parts');
    const text = await fetch(`${base}/ll.m3u8`).then((response) => (response.ok ? response.text() : ''));
    first = nextBlockingRequest(text);
    await sleep(250);
  }
  const agent = new Agent({ keepAlive: true, maxSockets: viewers * 2 });
  const get = (path: string) =>
    new Promise<{ status: number; body: string }>((resolve) => {
      const req = request(`${base}/${path}`, { agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      });
      req.setTimeout(15_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve({ status: 0, body: '' }));
      req.end();
    });
  const answers = new Histogram();
  let playlists = 0;
  let parts = 0;
  let errors = 0;
  let running = true;
  const viewer = async (start: { msn: number; part: number }) => {
    let next = start;
    while (running) {
      const asked = clock();
      const answer = await get(`ll.m3u8?_HLS_msn=${next.msn}&_HLS_part=${next.part}&_HLS_skip=YES`);
      if (!running) return;
      const parsed = answer.status === 200 ? nextBlockingRequest(answer.body) : null;
      if (!parsed) {
        errors += 1;
        await sleep(200);
        continue;
      }
      playlists += 1;
      answers.record(clock() - asked);
      if (parsed.newestPart) {
        const part = await get(parsed.newestPart);
        // Answers cut off by the server's stop at the end are not errors.
        if (!running) return;
        if (part.status === 200) parts += 1;
        else errors += 1;
      }
      next = parsed;
    }
  };
  // The server's own CPU and its media worker's (LIVE_MEDIA=child, the default).
  const serverPids = processTree(server.child.pid as number);
  const cpu = () => serverPids.reduce((sum, pid) => sum + (readCpuSeconds(pid) ?? 0), 0);
  const before = { cpu: cpu(), at: clock() };
  const players = Array.from({ length: viewers }, () => viewer(first as { msn: number; part: number }));
  await sleep(seconds * 1000);
  const after = { cpu: cpu(), at: clock() };
  running = false;
  await stopChild(server.child);
  await Promise.all(players);
  agent.destroy();
  const wall = (after.at - before.at) / 1000;
  return {
    viewers,
    seconds: Math.round(wall),
    playlistsPerSecond: Math.round(playlists / wall),
    partsPerSecond: Math.round(parts / wall),
    errors,
    blockingAnswerP50Ms: round(answers.quantile(0.5)),
    blockingAnswerP99Ms: round(answers.quantile(0.99)),
    serverCpuPercentOfOneCore: Math.round(((after.cpu - before.cpu) / wall) * 1000) / 10,
  };
}

// ── CPU per live show ─────────────────────────────────────────────────────────

async function cpuPerShow(mode: 'passthrough' | 'transcode') {
  const server = await startServer({ VITRINE_DEMO_LIVE: '0', VITRINE_SEED_DEMO: '1' });
  const auth = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
  const created = await fetch(`${server.url}/staff/stores/demo-store/shows`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      name: `CPU ${mode}`,
      startsAt: '2026-10-01T19:00',
      timeZone: 'Europe/Copenhagen',
    }),
  }).then((response) => response.json() as Promise<{ uid: string }>);
  const stream = await fetch(`${server.url}/staff/stores/demo-store/shows/${created.uid}/stream`, {
    headers: auth,
  }).then((response) => response.json() as Promise<{ streamKey: string }>);
  // A 720p30 publisher: H.264 (passed through) or FLV1, which the packager must transcode.
  const video = mode === 'passthrough' ? H264_LIVE_VIDEO : ['-c:v', 'flv1', '-g', '30', '-b:v', '4000k'];
  const encoder = track(
    spawn(
      'ffmpeg',
      rtmpTestPatternArgs(video, `rtmp://127.0.0.1:${server.rtmpPort}/live/${stream.streamKey}`),
      { stdio: 'ignore' },
    ),
  );
  const folder = join(server.dataDir, 'live', created.uid);
  let packager: number | null = null;
  for (let tries = 0; tries < 100 && packager === null; tries += 1) {
    await sleep(200);
    try {
      packager = Number(execFileSync('pgrep', ['-f', folder], { encoding: 'utf8' }).split('\n')[0]) || null;
    } catch {
      packager = null;
    }
  }
  if (packager === null) throw new Error(`no packager for the ${mode} show`);
  await sleep(3000);
  const serverPid = server.child.pid as number;
  const before = {
    packager: readCpuSeconds(packager) ?? 0,
    server: readCpuSeconds(serverPid) ?? 0,
    at: clock(),
  };
  await sleep(seconds * 1000);
  const after = {
    packager: readCpuSeconds(packager) ?? 0,
    server: readCpuSeconds(serverPid) ?? 0,
    at: clock(),
  };
  const wall = (after.at - before.at) / 1000;
  await stopChild(encoder);
  await stopChild(server.child);
  const percent = (cpu: number) => Math.round((cpu / wall) * 1000) / 10;
  return {
    mode,
    packagerCpuPercentOfOneCore: percent(after.packager - before.packager),
    serverCpuPercentOfOneCore: percent(after.server - before.server),
  };
}

const report: Record<string, unknown> = {
  bench: 'live',
  seconds,
  cores: (await import('node:os')).cpus().length,
};
if (parts.has('serving')) report.serving = await serving();
if (parts.has('ll-viewers')) {
  report.lowLatencyViewers = [];
  for (const viewers of args['ll-viewers'].split(',').map(Number)) {
    (report.lowLatencyViewers as LowLatencyLoadResult[]).push(await lowLatencyViewers(viewers));
  }
}
if (parts.has('cpu')) report.cpu = [await cpuPerShow('passthrough'), await cpuPerShow('transcode')];
process.stdout.write(`${JSON.stringify(report)}\n`);
process.exit(0);
