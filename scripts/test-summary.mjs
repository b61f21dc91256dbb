// The test loop's closing report (scripts/test-parts.sh): one line per part that ran, the slowest
// test files, and the total alone on the last line: "N passed, N failed". Reads the parts file
// (name, exit status, seconds, Vitest JSON report or "-", tab-separated). Exits non-zero if any
// part failed or no test ran at all.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const SLOWEST_SHOWN = 8;
const partsFile = process.argv[2];
if (!partsFile) {
  console.error('usage: node scripts/test-summary.mjs test-results/parts.tsv');
  process.exit(2);
}

const parts = readFileSync(partsFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    const [name, status, seconds, report] = line.split('\t');
    return { name, status: Number(status), seconds: Number(seconds), report };
  });

/** A Vitest JSON report's counts and per-file durations; null when the run wrote none (it crashed first). */
function readReport(file) {
  if (!file || file === '-' || !existsSync(file)) return null;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
    files: report.testResults.map((result) => ({
      file: relative(process.cwd(), result.name),
      seconds: (result.endTime - result.startTime) / 1000,
      failed: result.status === 'failed',
      // A file can fail with no failing test (a hook that threw, a file that did not load).
      message: result.message || '',
      failedTests: (result.assertionResults ?? [])
        .filter((test) => test.status === 'failed')
        .map((test) => ({
          name: test.fullName || test.title,
          message: test.failureMessages?.[0] ?? '',
        })),
    })),
  };
}

/** The failing tests by name, with the first line of each one's failure: a CI log keeps only its tail. */
function failedTestLines(report) {
  return report.files.flatMap((file) =>
    file.failedTests.map(
      (test) => `    failed: ${file.file} > ${test.name}: ${firstLine(test.message) || '(no message)'}`,
    ),
  );
}

function firstLine(text) {
  return text.split('\n')[0]?.slice(0, 300) ?? '';
}

/**
 * Why a part whose tests all passed still failed: the files that failed without a failing test,
 * with their messages, or a pointer to the errors Vitest prints outside any test (unhandled
 * rejections), which its JSON report does not carry.
 */
function failureWithoutFailedTest(report) {
  const failedFiles = report.files.filter((file) => file.failed);
  if (!failedFiles.length) {
    return ['    no failing test or file: look in its output for "Unhandled Errors" or a teardown error'];
  }
  return failedFiles.map(
    (file) => `    failed file: ${file.file}: ${firstLine(file.message) || '(no message)'}`,
  );
}

let passed = 0;
let failed = 0;
let failedParts = 0;
const files = [];
const lines = [];
for (const part of parts) {
  const report = readReport(part.report);
  const ok = part.status === 0;
  if (!ok) failedParts += 1;
  let counts = '';
  if (report) {
    passed += report.passed;
    failed += report.failed;
    counts = `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`;
    files.push(...report.files.map((file) => ({ ...file, part: part.name })));
  } else if (part.report !== '-') {
    counts = 'no test report';
  }
  // A part that failed without a failing test (lint, a type error, a set-up that threw) counts as one failure.
  if (!ok && (report?.failed ?? 0) === 0) failed += 1;
  const result = ok ? 'passed' : `FAILED (exit ${part.status})`;
  lines.push(
    `  ${part.name.padEnd(16)} ${result.padEnd(16)} ${`${part.seconds} s`.padStart(7)}  ${counts}`.trimEnd(),
  );
  if (report && report.failed > 0) lines.push(...failedTestLines(report));
  if (!ok && report && report.failed === 0) lines.push(...failureWithoutFailedTest(report));
}

console.log('\n=== test loop summary');
for (const line of lines) console.log(line);
const slowest = files.sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST_SHOWN);
if (slowest.length) {
  console.log('  slowest files (time in their tests, from the JSON reports):');
  for (const file of slowest) {
    console.log(
      `    ${file.seconds.toFixed(1).padStart(6)} s  ${file.part}: ${file.file}${file.failed ? ' (failed)' : ''}`,
    );
  }
}
console.log(`  parts: ${parts.length - failedParts} passed, ${failedParts} failed`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failedParts > 0 || failed > 0 || passed === 0 ? 1 : 0);
