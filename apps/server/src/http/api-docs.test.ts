import { readFileSync } from 'node:fs';
import { CALL_ROUTES, CallCatalogue } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import { withGeneratedReference } from './api-docs.ts';

const docsPath = new URL('../../../../docs/api.md', import.meta.url);

describe('docs/api.md', () => {
  it('holds what the call and read catalogues render (run `npm run docs:api` after changing a call)', () => {
    const written = readFileSync(docsPath, 'utf8');
    expect(withGeneratedReference(written)).toBe(written);
  });

  it('documents every call of the catalogue', () => {
    const written = readFileSync(docsPath, 'utf8');
    for (const [name, call] of Object.entries(CallCatalogue))
      expect(written).toContain(`\`${name}\`: \`${call.method} ${call.path}\``);
  });
});

describe('the call catalogue', () => {
  it('declares the schema of every path parameter, and no parameter its path lacks', () => {
    for (const [name, call] of Object.entries(CallCatalogue)) {
      const inPath = [...call.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]).sort();
      const declared = 'params' in call ? Object.keys(call.params.shape).sort() : [];
      expect(declared, name).toEqual(inPath);
    }
  });

  it('serves each method and path once', () => {
    const routes = Object.values(CALL_ROUTES).map((route) => `${route.method} ${route.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });
});
