import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Issue 31: no import cycle, checked on the source itself (as `madge --circular` would, in ~1 s).
// 1. Between files of the server, the web app and the packages, across package names too
//    (`@vitrine/domain` is packages/domain/src/index.ts).
// 2. Between the web app's folders, each feature folder (src/features/X) one (the server's folders
//    have the same rule in apps/server/src/architecture.test.ts).
// Every import counts: `import type`, as docs/architecture.md counts it for the server's folders
// (a type-only cycle still means neither side can be read, moved or tested without the other), and
// `import()` (a lazy chunk that imports its loader back is still one unit with it). The check lives
// in the web project because that runs in the CI's fast unit part; it reads the whole repository.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const WEB_SRC = join(ROOT, 'apps/web/src');
const SOURCE_ROOTS = [
  'apps/server/src',
  'apps/web/src',
  'packages/domain/src',
  'packages/protocol/src',
  'packages/sdk/src',
];
const EXTENSIONS = ['.ts', '.tsx'];

/** Node → the nodes it imports → how (the import, for the report). */
type Graph = Map<string, Map<string, string>>;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return EXTENSIONS.some((extension) => name.endsWith(extension)) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * `@vitrine/<name>[/<subpath>]` → the source file that packages/<name>/package.json exports under
 * it; null for any other package (the SDK exports its build, which no source imports).
 */
function resolvePackage(specifier: string): string | null {
  const [, name, subpath] = /^@vitrine\/([^/]+)(\/.+)?$/.exec(specifier) ?? [];
  if (!name) return null;
  const manifest = join(ROOT, 'packages', name, 'package.json');
  if (!existsSync(manifest)) return null;
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> };
  const target = exports?.[subpath ? `.${subpath}` : '.'];
  return typeof target === 'string' && target.startsWith('./src/') ? join(dirname(manifest), target) : null;
}

/** The source file a specifier names, or null (a package outside the repository, a stylesheet). */
function resolveSpecifier(from: string, specifier: string): string | null {
  const bare = specifier.replace(/\?.*$/, '');
  if (!bare.startsWith('.')) return resolvePackage(bare);
  const path = resolve(dirname(from), bare);
  const candidates = [
    path,
    ...EXTENSIONS.map((extension) => path + extension),
    ...EXTENSIONS.map((extension) => join(path, `index${extension}`)),
  ];
  return (
    candidates.find(
      (candidate) => EXTENSIONS.some((extension) => candidate.endsWith(extension)) && existsSync(candidate),
    ) ?? null
  );
}

/**
 * How the import whose specifier starts at `position` is written, from the `import` or `export`
 * keyword that opens it: `import type` (or `export type`), `import()` (a call, or an import type
 * `import('…').T`), else `import`.
 */
function importKind(text: string, position: number): string {
  const before = text.slice(Math.max(0, position - 2000), position);
  const keyword = [...before.matchAll(/\b(?:import|export)\b/g)].at(-1);
  const written = keyword ? before.slice(keyword.index) : '';
  if (/^import\s*\(\s*['"`]?$/.test(written)) return 'import()';
  return /^(?:import|export)\s+type\b/.test(written) ? 'import type' : 'import';
}

/**
 * File → the files it imports, every file of SOURCE_ROOTS relative to the repository. TypeScript's
 * pre-parser finds the imports (as the language service finds a program's files: comments and
 * strings skipped; a third of a full parse's time, and the same imports on this repository).
 */
function fileGraph(): Graph {
  const graph: Graph = new Map();
  for (const path of SOURCE_ROOTS.flatMap((root) => sourceFiles(join(ROOT, root)))) {
    const text = readFileSync(path, 'utf8');
    const imports = new Map<string, string>();
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      const target = resolveSpecifier(path, imported.fileName);
      if (target) imports.set(relative(ROOT, target), importKind(text, imported.pos));
    }
    graph.set(relative(ROOT, path), imports);
  }
  return graph;
}

/** The web app's folder of a file: `features/X` for a feature's, else the top folder (`src` at the top). */
function webFolderOf(repoPath: string): string | null {
  const parts = relative(WEB_SRC, join(ROOT, repoPath)).split(sep);
  if (parts[0] === '..') return null;
  if (parts.length === 1) return 'src';
  return parts[0] === 'features' ? `features/${parts[1]}` : (parts[0] ?? null);
}

/** Folder → the folders it imports → one import that does it, over the web app's non-test files. */
function webFolderGraph(files: Graph): Graph {
  const graph: Graph = new Map();
  for (const [path, imports] of files) {
    const from = webFolderOf(path);
    if (!from || /\.test\.tsx?$/.test(path)) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const [target, kind] of imports) {
      const to = webFolderOf(target);
      if (to && to !== from && !edges.has(to)) edges.set(to, `${kind}: ${path} → ${target}`);
    }
  }
  return graph;
}

/** The strongly connected components of more than one node (Tarjan), each sorted. */
function cyclicGroups(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (node: string) => {
    const own = index.size;
    index.set(node, own);
    lowLink.set(node, own);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        connect(next);
        lowLink.set(node, Math.min(lowLink.get(node) ?? own, lowLink.get(next) ?? own));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node) ?? own, index.get(next) ?? own));
      }
    }
    if (lowLink.get(node) !== own) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return groups;
}

/** A shortest cycle inside the group (breadth first from each member), as its nodes, first = last. */
function shortestCycle(group: string[], graph: Graph): string[] {
  let shortest = [...group, group[0] ?? ''];
  for (const start of group) {
    const cameFrom = new Map<string, string>();
    const queue = [start];
    search: for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
      for (const next of graph.get(at)?.keys() ?? []) {
        if (!group.includes(next) || cameFrom.has(next)) continue;
        cameFrom.set(next, at);
        if (next === start) break search;
        queue.push(next);
      }
    }
    if (!cameFrom.has(start)) continue;
    const cycle = [start];
    for (let back = cameFrom.get(start); back !== undefined && back !== start; back = cameFrom.get(back)) {
      cycle.unshift(back);
    }
    cycle.unshift(start);
    if (cycle.length < shortest.length) shortest = cycle;
  }
  return shortest;
}

/** One line per cyclic group: its size and a shortest cycle in it, each import with how it is made. */
function cycleReport(graph: Graph): string[] {
  return cyclicGroups(graph).map((group) => {
    const cycle = shortestCycle(group, graph);
    const steps = cycle.slice(1).map((to, step) => {
      const from = cycle[step] ?? '';
      return `${from} → ${to} (${graph.get(from)?.get(to)})`;
    });
    return `${group.length} in a cycle, e.g. ${steps.join(', ')}`;
  });
}

describe('import cycles', () => {
  const files = fileGraph();

  it('reads the sources of the server, the web app and the packages, across package names', () => {
    const roots = new Set(
      [...files.keys()].map((path) => SOURCE_ROOTS.find((root) => path.startsWith(`${root}/`))),
    );
    expect([...roots].sort()).toEqual([...SOURCE_ROOTS].sort());
    expect(files.get('packages/protocol/src/vocabulary.ts')?.get('packages/domain/src/vocabulary.ts')).toBe(
      'import',
    );
    expect(files.get('apps/web/src/features/player/hls-loader.ts')).toEqual(
      new Map([
        ['apps/web/src/lib/after-next-paint.ts', 'import'],
        ['apps/web/src/lib/live-clock.ts', 'import type'],
        ['apps/web/src/features/player/hls-config.ts', 'import'],
        ['apps/web/src/features/player/hls-playback.ts', 'import()'],
      ]),
    );
  });

  it('finds none between files', () => {
    expect(cycleReport(files), 'import cycles between files').toEqual([]);
  });

  it('finds none between the web app’s folders', () => {
    const folders = webFolderGraph(files);
    expect(folders.get('features/player')?.has('features/interaction')).toBe(true);
    expect(cycleReport(folders), 'import cycles between the web app’s folders').toEqual([]);
  });

  it('reports a cycle with how each of its imports is made', () => {
    const graph: Graph = new Map([
      ['a', new Map([['b', 'import']])],
      ['b', new Map([['c', 'import type']])],
      [
        'c',
        new Map([
          ['a', 'import()'],
          ['d', 'import'],
        ]),
      ],
      ['d', new Map()],
    ]);
    expect(cycleReport(graph)).toEqual([
      '3 in a cycle, e.g. a → b (import), b → c (import type), c → a (import())',
    ]);
    expect(cycleReport(new Map([...graph, ['c', new Map([['d', 'import']])]]))).toEqual([]);
  });
});
