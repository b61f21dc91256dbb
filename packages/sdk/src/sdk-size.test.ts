import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bundle } from '../build.mjs';

/** Issue budget of the loader served at /sdk.js, gzip. */
const LOADER_BUDGET_BYTES = 5 * 1024;

describe('sdk bundles', () => {
  it(`keeps the /sdk.js loader within ${LOADER_BUDGET_BYTES} bytes gzip`, async () => {
    const code = await bundle('sdk.js', { write: false });
    const gzipBytes = gzipSync(code, { level: 9 }).length;
    console.log(JSON.stringify({ sdkJsBytes: code.length, sdkJsGzipBytes: gzipBytes }));
    expect(gzipBytes).toBeLessThanOrEqual(LOADER_BUDGET_BYTES);
  });

  it('is as small as docs/embedding.md tells retailers', () => {
    const doc = readFileSync(new URL('../../../docs/embedding.md', import.meta.url), 'utf8');
    const stated = /the loader is one file of at most 5 KiB \(([\d,]+) bytes\) gzip/.exec(doc)?.[1];
    expect(Number(stated?.replaceAll(',', ''))).toBe(LOADER_BUDGET_BYTES);
  });

  it('bundles no dependency: no zod, no import, one self-contained script', async () => {
    for (const name of ['sdk.js', 'index.mjs'] as const) {
      const code = await bundle(name, { write: false });
      expect(code).not.toMatch(/zod|ZodError/i);
      expect(code).not.toMatch(/^\s*import\s/m);
    }
  });
});
