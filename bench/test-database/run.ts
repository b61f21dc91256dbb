// What a server test's database costs to open (issue 31: the test loop's CPU): a fresh in-memory
// PGlite started from the migrated template, used for one query and closed, as each server test
// file does. Two ways to hand PGlite the template, alternating in the same run so that both see the
// same machine: a Blob of the file's bytes (the baseline, as before ReusableTarball), and
// ReusableTarball (apps/server/src/test-support/pglite-template.ts), which gives PGlite one buffer
// for every load. Prints CPU (user + system of this process) and wall time per database, with the
// load average.
//
//   node --import tsx bench/test-database/run.ts [--rounds 10]

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openPgliteDatabase } from '../../apps/server/src/db/pglite-database.ts';
import {
  cachedMigratedPgliteTemplate,
  ReusableTarball,
  TEST_SHARED_BUFFERS,
} from '../../apps/server/src/test-support/pglite-template.ts';
import { loadAverage, median } from '../start/start-support.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds must be a whole number, not ${values.rounds}`);

const file = await cachedMigratedPgliteTemplate();
const bytes = readFileSync(file);
const ways = {
  'Blob (baseline)': new Blob([bytes]),
  ReusableTarball: new ReusableTarball(bytes),
} as const;

async function openOnce(template: Blob): Promise<{ cpuMs: number; wallMs: number }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const db = await openPgliteDatabase(undefined, { startFrom: template, sharedBuffers: TEST_SHARED_BUFFERS });
  await db.query('SELECT count(*) FROM schema_migrations');
  await db.close();
  const cpu = process.cpuUsage(cpuBefore);
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - started };
}

console.log(
  `template ${file} (${(bytes.byteLength / 1e6).toFixed(1)} MB), ${rounds} rounds; ${loadAverage()}`,
);
// One untimed open each first: PGlite compiles its WebAssembly once per process.
for (const template of Object.values(ways)) await openOnce(template);
const results = new Map<string, { cpuMs: number[]; wallMs: number[] }>();
for (let round = 0; round < rounds; round++) {
  for (const [name, template] of Object.entries(ways)) {
    const { cpuMs, wallMs } = await openOnce(template);
    const kept = results.get(name) ?? { cpuMs: [], wallMs: [] };
    kept.cpuMs.push(cpuMs);
    kept.wallMs.push(wallMs);
    results.set(name, kept);
  }
}
for (const [name, { cpuMs, wallMs }] of results)
  console.log(
    `${name.padEnd(16)} CPU per database: median ${median(cpuMs).toFixed(0)} ms; wall: median ${median(wallMs).toFixed(0)} ms`,
  );
console.log(loadAverage());
