import { type ChildProcess, spawn } from 'node:child_process';
import { RESTREAM_STABLE_MS, redactSecret, restreamRetryDelayMs } from '@vitrine/domain';
import type { RestreamHealth } from './restream-store.ts';

/** How long ffmpeg gets to close its output after SIGTERM before it is killed. */
const STOP_GRACE_MS = 3000;
/** The bitrate is measured over the progress reports of this last stretch. */
const BITRATE_WINDOW_MS = 5000;

/** One destination's sending: an ffmpeg run after another, each failure followed by a back-off. */
export interface RestreamRun {
  health(): RestreamHealth;
  /** Stops sending (ffmpeg is ended, no retry); resolves once it exited. */
  stop(): Promise<void>;
}

/**
 * ffmpeg reading the show's live playlist over loopback HTTP (what viewers get: H.264 and AAC
 * whatever came in) and sending it as FLV to the destination, copied, not re-encoded. Only
 * the protocols each side needs are allowed, so a destination URL cannot make ffmpeg open a file.
 */
export function restreamArgs(inputUrl: string, publishUrl: string): string[] {
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1'],
    ...['-protocol_whitelist', 'http,tcp', '-rw_timeout', '15000000', '-i', inputUrl],
    ...['-map', '0:v:0?', '-map', '0:a:0?', '-c', 'copy'],
    ...['-f', 'flv', '-flvflags', 'no_duration_filesize', '-protocol_whitelist', 'rtmp,rtmps,tcp,tls'],
    publishUrl,
  ];
}

/**
 * Starts sending `inputUrl` to `publishUrl` and keeps at it: a run that fails is started again
 * after a back-off (2 s, 5 s, 10 s, 30 s, then every minute; a run that sent for 30 s starts
 * the back-off over). `onChange` hears each change of state. The stream key never appears in
 * what it reports: ffmpeg's errors quote the URL, and the key is redacted from them.
 */
export function startRestreamRun(options: {
  ffmpegPath: string;
  inputUrl: string;
  publishUrl: string;
  streamKey: string;
  now: () => number;
  onChange: (health: RestreamHealth) => void;
  onExit?: (details: { code: number | null; stderr: string }) => void;
}): RestreamRun {
  const { now } = options;
  let health: RestreamHealth = {
    state: 'connecting',
    reason: null,
    bytesSent: 0,
    bitrateKbps: null,
    stateSince: now(),
  };
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let retryTimer: NodeJS.Timeout | null = null;
  let stopped = false;
  let failures = 0;

  const change = (next: Partial<RestreamHealth>) => {
    const stateChanged = next.state !== undefined && next.state !== health.state;
    health = { ...health, ...next, ...(stateChanged ? { stateSince: now() } : {}) };
    if (stateChanged) options.onChange(health);
  };

  const launch = () => {
    retryTimer = null;
    if (stopped) return;
    change({ state: 'connecting', reason: null, bytesSent: 0, bitrateKbps: null });
    const started = now();
    let sentFrom: number | null = null;
    const samples: { at: number; bytes: number }[] = [];
    let stderr = '';
    const run = spawn(options.ffmpegPath, restreamArgs(options.inputUrl, options.publishUrl), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = run;
    run.stdout?.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n')) {
        const [key, value = ''] = line.split('=');
        if (key !== 'total_size') continue;
        const bytes = Number.parseInt(value, 10);
        if (!Number.isFinite(bytes) || bytes <= 0) continue;
        const at = now();
        samples.push({ at, bytes });
        while (samples.length > 2 && (samples[0] as { at: number }).at < at - BITRATE_WINDOW_MS)
          samples.shift();
        const first = samples[0] as { at: number; bytes: number };
        const bitrateKbps =
          at > first.at ? Math.round(((bytes - first.bytes) * 8) / (at - first.at)) : health.bitrateKbps;
        sentFrom ??= at;
        change({ state: 'live', reason: null, bytesSent: bytes, bitrateKbps });
      }
    });
    run.stderr?.setEncoding('utf8').on('data', (text: string) => {
      // The last lines say why a run failed.
      stderr = (stderr + text).slice(-2000);
    });
    exited = new Promise<void>((resolve) => {
      const finish = (code: number | null) => {
        if (child === run) child = null;
        resolve();
        options.onExit?.({ code, stderr: redactSecret(stderr, options.streamKey) });
        if (stopped) return;
        // A run that sent for a while was a success: its failure starts the back-off over.
        failures = sentFrom !== null && now() - started >= RESTREAM_STABLE_MS ? 1 : failures + 1;
        change({
          state: 'failed',
          reason: failureReason(stderr, code, options.streamKey),
          bitrateKbps: null,
        });
        retryTimer = setTimeout(launch, restreamRetryDelayMs(failures));
        retryTimer.unref();
      };
      run.once('exit', (code) => finish(code));
      run.once('error', (error) => {
        stderr += String(error);
        finish(null);
      });
    });
  };

  launch();
  return {
    health: () => ({ ...health }),
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      const running = child;
      if (running) {
        running.kill('SIGTERM');
        const kill = setTimeout(() => running.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(kill);
      }
      // Not reported: whoever stopped it (the host, the show's end, another node) says so.
      health = { ...health, state: 'stopped', reason: null, bitrateKbps: null, stateSince: now() };
    },
  };
}

/** The host's words for a failed run: ffmpeg's last error line (the key redacted), or its exit. */
function failureReason(stderr: string, code: number | null, streamKey: string): string {
  const lines = redactSecret(stderr, streamKey)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const last = lines.at(-1);
  if (last) return last.slice(0, 300);
  return code === 0 ? 'The stream ended.' : `ffmpeg stopped (exit code ${code ?? 'none'}).`;
}
