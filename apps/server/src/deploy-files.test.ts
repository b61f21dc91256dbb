import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReadCatalogue } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_SETTINGS, loadConfig } from './config.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
/** Settings read outside loadConfig (main.ts). */
const OTHER_SETTINGS = ['VITRINE_PRINT_STUDIO_LINK'];

/** `NAME=value` lines of an env file, commented out (`# NAME=…`) or not. */
function envLines(text: string) {
  return [...text.matchAll(/^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((match) => ({
    name: match[2] as string,
    value: match[3] as string,
    set: match[1] === undefined,
  }));
}

describe('deploy/vitrine.env.example', () => {
  const lines = envLines(read('deploy/vitrine.env.example'));

  it('lists every setting the server reads, once, and nothing else', () => {
    const names = lines.map((line) => line.name);
    expect([...names].sort()).toEqual([...new Set([...ENVIRONMENT_SETTINGS, ...OTHER_SETTINGS])].sort());
  });

  it('is a valid configuration as it is (with an admin key filled in)', () => {
    const env = Object.fromEntries(lines.filter((line) => line.set).map((line) => [line.name, line.value]));
    const config = loadConfig({ ...env, VITRINE_ADMIN_KEY: 'a-real-key-of-the-operator-0123456789' }, false);
    expect(config).toMatchObject({
      trustProxy: '127.0.0.1',
      testPayments: false,
      seedDemo: false,
      database: { kind: 'postgres' },
      publicUrl: 'https://shop.example.com',
    });
  });
});

describe('deploy/systemd/vitrine.service', () => {
  const unit = read('deploy/systemd/vitrine.service');

  it('runs the compiled server with its data directory writable and the system read-only', () => {
    expect(unit).toMatch(/^ExecStart=\S+\/node \/opt\/vitrine\/dist\/server\/main\.mjs$/m);
    for (const hardening of [
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'ReadWritePaths=/var/lib/vitrine',
      'PrivateTmp=yes',
      'ProtectHome=yes',
      'CapabilityBoundingSet=',
    ]) {
      expect(unit).toContain(`\n${hardening}\n`);
    }
  });

  it.skipIf(!existsSync('/usr/bin/systemd-analyze'))('passes systemd-analyze verify', () => {
    // The unit as installed, with this machine's Node in place of /usr/local/bin/node.
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-unit-'));
    try {
      const file = join(dir, 'vitrine.service');
      writeFileSync(file, unit.replaceAll('/usr/local/bin/node', process.execPath));
      const output = execFileSync('/usr/bin/systemd-analyze', ['verify', file], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(output).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The settings the README's settings table lists: the first cell of each row, `A` or `A` / `B`. */
function readmeSettings(readme: string): string[] {
  const start = readme.indexOf('| Variable ');
  const end = readme.indexOf('\n\n', start);
  expect(start, 'the README has a settings table').toBeGreaterThan(0);
  return readme
    .slice(start, end)
    .split('\n')
    .flatMap((row) =>
      [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? ''),
    );
}

describe('the docs', () => {
  it("list every setting the server reads in the README's settings table, and no other", () => {
    const listed = readmeSettings(read('README.md'));
    expect([...listed].sort()).toEqual([...new Set([...ENVIRONMENT_SETTINGS, ...OTHER_SETTINGS])].sort());
  });

  it('name only repository files that exist (build output and globs aside)', () => {
    const missing: string[] = [];
    for (const doc of ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)]) {
      if (!doc.endsWith('.md')) continue;
      for (const [, path = ''] of read(doc).matchAll(
        /`((?:apps|packages|docs|deploy|scripts|e2e|bench)\/[^`\s]*)`/g,
      )) {
        // A reference may point into a file (`path:line`, `path#anchor`); dist/ is what a build makes.
        const file = path.replace(/[:#].*$/, '');
        if (file.includes('*') || /(^|\/)dist(\/|$)/.test(file)) continue;
        if (!existsSync(join(ROOT, file))) missing.push(`${doc}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('point to nothing outside the repository', () => {
    for (const doc of ['README.md', 'docs/architecture.md', 'docs/operations.md', 'docs/embedding.md']) {
      expect(read(doc), doc).not.toMatch(/`(?:\.\.\/|shared\/)[^`]*`/);
    }
  });

  it('name every named read in docs/architecture.md', () => {
    const architecture = read('docs/architecture.md');
    expect(Object.keys(ReadCatalogue).filter((name) => !architecture.includes(`\`${name}\``))).toEqual([]);
  });
});
