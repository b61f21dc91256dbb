/**
 * Preloaded (`--import`) into every child process of the benchmark, including the Vitrine server
 * and the Socket.IO baseline, so both get exactly the same hooks:
 *
 * - Parent guard: when the benchmark process goes away without cleaning up (SIGKILL, crash), the
 *   child notices that its parent changed and stops itself (SIGTERM, then exit after 5 s), so no
 *   server or load generator is left behind. One timer per second.
 * - Full GC on SIGUSR2 when the process runs with --expose-gc: the benchmark collects garbage
 *   before it reads the resident set size, so start-up garbage (e.g. PGlite's initdb instance)
 *   does not count against or for the connections. With BENCH_MEMORY_DIR set, the process then
 *   writes its process.memoryUsage() to BENCH_MEMORY_DIR/<pid>.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const parent = process.ppid;
const timer = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(timer);
  process.kill(process.pid, 'SIGTERM');
  setTimeout(() => process.exit(1), 5_000).unref();
}, 1_000);
timer.unref();

const collectGarbage = (globalThis as { gc?: () => void }).gc;
const memoryDir = process.env.BENCH_MEMORY_DIR;
process.on('SIGUSR2', () => {
  collectGarbage?.();
  collectGarbage?.();
  if (memoryDir) writeFileSync(join(memoryDir, `${process.pid}.json`), JSON.stringify(process.memoryUsage()));
});
