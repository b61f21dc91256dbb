import { parseArgs } from 'node:util';
import { type DoctorFinding, doctorExitCode } from '@vitrine/domain';
import { runDoctor } from './doctor/run-doctor.ts';

/**
 * `npm run doctor -- https://shop.example [--admin-key KEY] [--json]`: checks a running install
 * from outside, as visitors, publishers and browsers reach it (doctor/run-doctor.ts), and prints
 * one line per check: ok, warn or fail, with what to change. Exits 1 when any check failed. Needs
 * no settings of the server: it can run on any machine (the admin key adds payments, mail, disk).
 */
const USAGE =
  'Usage: npm run doctor -- <https://shop.example> [--admin-key KEY] [--store ID] [--http-port 80] [--rtmp-port 1935] [--timeout-ms 5000] [--json]';

const parsed = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        'admin-key': { type: 'string' },
        store: { type: 'string' },
        'http-port': { type: 'string' },
        'rtmp-port': { type: 'string' },
        'timeout-ms': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
  } catch {
    return null;
  }
})();
const address = parsed?.positionals[0];
const port = (text: string | undefined, fallback: number | null) =>
  text === undefined ? fallback : Number(text);
const httpPort = port(parsed?.values['http-port'], 80);
const rtmpPort = port(parsed?.values['rtmp-port'], null);
const timeoutMs = port(parsed?.values['timeout-ms'], 5000);
const valid =
  parsed &&
  parsed.positionals.length === 1 &&
  address &&
  /^https?:\/\/[^/]/.test(address) &&
  URL.canParse(address) &&
  [httpPort, rtmpPort ?? 1, timeoutMs].every((value) => Number.isInteger(value) && (value ?? 0) > 0);
if (!valid) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

const findings = await runDoctor({
  url: address,
  adminKey: parsed.values['admin-key'] ?? process.env.VITRINE_ADMIN_KEY ?? null,
  store: parsed.values.store ?? null,
  httpPort: httpPort as number,
  rtmpPort,
  timeoutMs: timeoutMs as number,
});

const line = (found: DoctorFinding) =>
  `${found.status.padEnd(5)} ${found.check.padEnd(16)} ${found.message}${found.fix ? `\n${' '.repeat(23)}fix: ${found.fix}` : ''}`;
if (parsed.values.json) {
  process.stdout.write(`${JSON.stringify({ url: address, findings }, null, 2)}\n`);
} else {
  const counts = (status: DoctorFinding['status']) =>
    findings.filter((found) => found.status === status).length;
  process.stdout.write(
    `${findings.map(line).join('\n')}\n\n${counts('ok')} ok, ${counts('warn')} warn, ${counts('fail')} fail\n`,
  );
}
process.exitCode = doctorExitCode(findings);
