/**
 * Flash deal spread (issue 30): the moment a deal's countdown ends, on which video frame each of
 * three live viewers at different delays sees it. The measuring is `e2e/flash-deals.e2e.ts`'s (a
 * real server, an RTMP stream whose frames carry their program date time, a control-room host,
 * viewers in Chromium whose playlists arrive late by different amounts); this runs it with three
 * viewers `--runs` times and prints each run's spread in frames, with the machine's load.
 *
 *   npm run build && node --import tsx bench/flash-deals/run.ts [--runs 3] [--delays 2000,3500]
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    /** How late the playlists of the viewers behind the edge arrive (ms); the first viewer is at the edge. */
    delays: { type: 'string', default: '2000,3500' },
  },
});
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Figures {
  viewerDelaysMs: number[];
  endSpreadMs: number;
  endSpreadFrames: number;
  countdownSpreadFrames: number;
}

const runs: (Figures & { load: number[] })[] = [];
for (let run = 0; run < Number(values.runs); run += 1) {
  const load = loadavg().map((figure) => Math.round(figure * 100) / 100);
  const result = spawnSync(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--project', 'e2e', 'e2e/flash-deals.e2e.ts'],
    { cwd: ROOT, env: { ...process.env, FLASH_DEAL_VIEWER_DELAYS: values.delays }, encoding: 'utf8' },
  );
  const line = `${result.stdout}`.split('\n').find((text) => text.includes('"endSpreadFrames"'));
  if (!line || result.status !== 0) {
    process.stderr.write(`run ${run + 1} failed (exit ${result.status}):\n${result.stdout.slice(-3000)}\n`);
    continue;
  }
  const figures = JSON.parse(line.slice(line.indexOf('{'))) as Figures;
  runs.push({ ...figures, load });
  process.stdout.write(
    `${JSON.stringify({ run: run + 1, viewerDelaysMs: figures.viewerDelaysMs, endSpreadFrames: figures.endSpreadFrames, countdownSpreadFrames: figures.countdownSpreadFrames, loadAverage: load })}\n`,
  );
}
const spreads = runs.map((run) => run.endSpreadFrames);
process.stdout.write(
  `${JSON.stringify({
    bench: 'flash-deal spread',
    viewers: values.delays.split(',').length + 1,
    runs: runs.length,
    endSpreadFrames: { max: Math.max(...spreads), each: spreads },
    goal: 'the same frame, ±1',
  })}\n`,
);
