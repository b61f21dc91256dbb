import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;
const WORKSPACES = ['packages', 'apps'].flatMap((folder) =>
  readdirSync(join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(folder, entry.name)),
);

interface Workspace {
  name: string;
  dependsOn: string[];
}

function workspace(folder: string): Workspace | null {
  try {
    const manifest = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
    };
    return {
      name: manifest.name,
      dependsOn: Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith('@vitrine/')),
    };
  } catch {
    return null;
  }
}

/** The first cycle found among the workspaces' runtime dependencies, as names, or null. */
function firstCycle(graph: Map<string, string[]>): string[] | null {
  const done = new Set<string>();
  const walk = (name: string, path: string[]): string[] | null => {
    if (path.includes(name)) return [...path.slice(path.indexOf(name)), name];
    if (done.has(name)) return null;
    for (const next of graph.get(name) ?? []) {
      const cycle = walk(next, [...path, name]);
      if (cycle) return cycle;
    }
    done.add(name);
    return null;
  };
  for (const name of graph.keys()) {
    const cycle = walk(name, []);
    if (cycle) return cycle;
  }
  return null;
}

/** Issue 31 item 4: the packages depend on each other one way; domain, with the vocabulary, is the bottom. */
describe('package layering', () => {
  const graph = new Map(
    WORKSPACES.map(workspace)
      .filter((found): found is Workspace => found !== null)
      .map((found) => [found.name, found.dependsOn]),
  );

  it('has no cycle among the workspaces’ dependencies', () => {
    expect(graph.get('@vitrine/protocol')).toContain('@vitrine/domain');
    expect(firstCycle(graph)).toBeNull();
    // The check finds one where there is one.
    expect(firstCycle(new Map([...graph, ['@vitrine/domain', ['@vitrine/protocol']]]))).toEqual([
      '@vitrine/domain',
      '@vitrine/protocol',
      '@vitrine/domain',
    ]);
  });

  it('keeps the domain rules free of the protocol (its tests may use it)', () => {
    const folder = join(ROOT, 'packages/domain/src');
    const importers = readdirSync(folder)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) =>
        /from '@vitrine\/(protocol|sdk|server|web)/.test(readFileSync(join(folder, file), 'utf8')),
      );
    expect(importers).toEqual([]);
  });
});
