import { readFileSync } from 'node:fs';
import { CALL_METHODS, CALL_ROUTES, CallCatalogue, type CallName } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import { CALL_GROUPS, withGeneratedReference } from './api-docs.ts';
import { ROUTE_TABLES, renderRouteTable } from './call-route-tables.ts';

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

  it('declares each call in one area file, each area sorted by path, then method', () => {
    const inAreas = CALL_GROUPS.flatMap((group) => group.names);
    expect([...inAreas].sort()).toEqual(Object.keys(CallCatalogue).sort());
    const order = (name: string) => {
      const { path, method } = CallCatalogue[name as CallName];
      return { path, method: CALL_METHODS.indexOf(method) };
    };
    for (const group of CALL_GROUPS) {
      const sorted = [...group.names].sort((a, b) => {
        const [x, y] = [order(a), order(b)];
        return x.path === y.path ? x.method - y.method : x.path < y.path ? -1 : 1;
      });
      expect(group.names, group.title).toEqual(sorted);
    }
  });

  it('has route tables generated from its declarations (run `npm run calls:routes` after changing a route)', () => {
    for (const table of ROUTE_TABLES) {
      const written = readFileSync(new URL(`../../../../${table.file}`, import.meta.url), 'utf8');
      expect(written, table.file).toBe(renderRouteTable(table));
    }
  });

  it('serves each method and path once', () => {
    const routes = Object.values(CALL_ROUTES).map((route) => `${route.method} ${route.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });
});
