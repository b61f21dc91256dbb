import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlParser, sqlTablesCreated, sqlTablesNamed } from './test-support/sql-tables.ts';

// Two structural rules of docs/architecture.md, checked on the source itself:
// 1. a feature folder's SQL names only its own tables (the owner of each table is the
//    `-- feature: X` comment above its CREATE in db/migrations); other features ask its service;
// 2. the folders of apps/server/src import each other without cycles.

const SRC = dirname(fileURLToPath(import.meta.url));
const MIGRATIONS = join(SRC, 'db', 'migrations');
const FEATURES = join(SRC, 'features');

/**
 * Source files that may name any feature's tables, each with the reason; everything else goes
 * through the owning feature's service. Empty on purpose: the demo seeder (features/demo) writes
 * through the services, and what sets up tests (test-support/, *.test.ts) is not scanned, as a
 * fixture may write any table directly.
 */
const SQL_ALLOW_LIST: Record<string, string> = {
  // The backup is of the whole database, no feature's: it reads every table of the schema (listed
  // from information_schema at run time) as text, for the media the rows refer to.
  'backups/media-files.ts': 'every table, read as text for media references',
};

/** The folder that must own the tables a file's SQL names: its feature, or its top-level folder. */
function ownerFolderOf(path: string): string {
  const [top = '', feature = ''] = relative(SRC, path).split(sep);
  return top === 'features' ? feature : top;
}

/** Table (or sequence) name → owning folder, read from the `-- feature:` comments of the migrations. */
function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of readdirSync(MIGRATIONS).filter((name) => name.endsWith('.sql'))) {
    const lines = readFileSync(join(MIGRATIONS, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      const table = /^CREATE (?:TABLE|SEQUENCE) (\w+)/.exec(line)?.[1];
      if (!table) return;
      // The owner is named in the comment block directly above the CREATE.
      let owner: string | undefined;
      for (let above = index - 1; lines[above]?.startsWith('--'); above--) {
        owner = /^-- feature: (\w[\w-]*)/.exec(lines[above] ?? '')?.[1] ?? owner;
      }
      if (!owner) throw new Error(`${file}:${index + 1}: ${table} has no "-- feature:" owner comment`);
      owners.set(table, owner);
    });
  }
  return owners;
}

/** Every non-test TypeScript file under a folder, recursively. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The lines of a source file whose SQL names a table its folder does not own, or one it cannot resolve. */
function ownershipViolations(
  path: string,
  source: string,
  owners: ReadonlyMap<string, string>,
  countUses: (uses: number) => void = () => {},
): string[] {
  const name = relative(SRC, path).split(sep).join('/');
  const scan = sqlTablesNamed(path, source, new Set(owners.keys()));
  countUses(scan.uses.length);
  return [
    ...scan.uses
      .filter((use) => owners.get(use.table) !== ownerFolderOf(path))
      .map((use) => `${name}:${use.line} names ${use.table}, owned by ${owners.get(use.table)}`),
    ...scan.unresolved.map(
      (use) => `${name}:${use.line} takes a table name from \`${use.expression}\`, which names no constant`,
    ),
  ];
}

/**
 * The six ways a statement on another feature's table slipped past the former regular
 * expression, each in a file of features/checkout naming the pages table (owned by stores).
 * Every one must be caught.
 */
const MUTATIONS: Record<string, string> = {
  'upper case': "await db.query('SELECT uid FROM pages WHERE uid = $1', [uid]);",
  'lower case': "await db.query('select uid from pages where uid = $1', [uid]);",
  'a quoted name': 'await db.query(\'SELECT uid FROM "pages" WHERE uid = $1\', [uid]);',
  'an interpolated constant': [
    "const TABLE = 'pages';",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture is source text holding a template literal
    'await db.query(`SELECT uid FROM ${TABLE} WHERE uid = $1`, [uid]);',
  ].join('\n'),
  'DELETE … USING': "await tx.query('DELETE FROM checkouts c USING pages p WHERE p.uid = c.page_uid');",
  'a comma join': "await db.query('SELECT c.uid FROM checkouts c, pages p WHERE p.uid = c.page_uid');",
};

describe('table ownership', () => {
  const owners = tableOwners();
  beforeAll(() => loadSqlParser());

  it('gives every table of the migrations an owner that exists', () => {
    const missing = [...new Set(owners.values())].filter(
      (owner) =>
        !statSync(join(FEATURES, owner), { throwIfNoEntry: false })?.isDirectory() &&
        !statSync(join(SRC, owner), { throwIfNoEntry: false })?.isDirectory(),
    );
    expect(missing).toEqual([]);
    expect(owners.get('checkouts')).toBe('checkout');
  });

  it('knows every table and sequence the migrations create, as PostgreSQL parses them', () => {
    const created = readdirSync(MIGRATIONS)
      .filter((name) => name.endsWith('.sql'))
      .flatMap((file) => sqlTablesCreated(readFileSync(join(MIGRATIONS, file), 'utf8')));
    expect(created.length).toBeGreaterThan(40);
    expect(created.filter((table) => !owners.has(table))).toEqual([]);
  });

  it('finds a table named in a template literal, on its line', () => {
    const source =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture is source text holding a template literal
      'const a = 1;\nawait db.query(`SELECT p.uid\n  FROM pages p JOIN campaigns c ON ${x} = 1`);\n';
    expect(sqlTablesNamed('fixture.ts', source, new Set(['pages', 'campaigns'])).uses).toEqual([
      { line: 3, table: 'pages' },
      { line: 3, table: 'campaigns' },
    ]);
    // A comment is not SQL, and prose without SQL words is not either.
    const prose = "// UPDATE pages\nconst s = 'no pages yet';\n";
    expect(sqlTablesNamed('fixture.ts', prose, new Set(['pages'])).uses).toEqual([]);
  });

  it.each(Object.entries(MUTATIONS))(
    "catches a statement on another feature's table written with %s",
    (_, code) => {
      const path = join(FEATURES, 'checkout', 'mutation.ts');
      expect(ownershipViolations(path, code, owners)).toEqual([
        expect.stringMatching(/names pages, owned by stores$/),
      ]);
      // The same statement is fine in the feature that owns the table.
      const inStores = ownershipViolations(join(FEATURES, 'stores', 'mutation.ts'), code, owners);
      expect(inStores.filter((violation) => violation.includes('names pages'))).toEqual([]);
    },
  );

  it('catches tables named in a concatenation, a fragment, a sub-query and nextval', () => {
    const path = join(FEATURES, 'checkout', 'mutation.ts');
    const cases = [
      "await db.query('SELECT uid FROM ' + 'pages');",
      "const join = ' JOIN pages p ON p.uid = c.page_uid';",
      "await db.query('SELECT uid FROM checkouts WHERE page_uid IN (SELECT uid FROM public.pages)');",
      "await db.query('WITH x AS (SELECT uid FROM Pages) SELECT * FROM x');",
      'await db.query("SELECT nextval(\'order_numbers\')");',
    ];
    expect(cases.map((code) => ownershipViolations(path, code, owners).length)).toEqual([1, 1, 1, 1, 0]);
    expect(ownershipViolations(join(FEATURES, 'stores', 'mutation.ts'), cases[4] ?? '', owners)).toEqual([
      expect.stringMatching(/names order_numbers, owned by checkout$/),
    ]);
  });

  it('flags a table name taken from an interpolation it cannot resolve', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture is source text holding a template literal
    const code = 'export const read = (table: string) => db.query(`SELECT * FROM ${table} WHERE uid = $1`);';
    expect(ownershipViolations(join(FEATURES, 'checkout', 'mutation.ts'), code, owners)).toEqual([
      expect.stringMatching(/takes a table name from `table`/),
    ]);
  });

  it('keeps the SQL of each feature (and of http, db, realtime) on its own tables', () => {
    const violations: string[] = [];
    let uses = 0;
    for (const path of sourceFiles(SRC)) {
      const name = relative(SRC, path).split(sep).join('/');
      if (name.startsWith('test-support/') || name in SQL_ALLOW_LIST) continue;
      violations.push(
        ...ownershipViolations(path, readFileSync(path, 'utf8'), owners, (count) => {
          uses += count;
        }),
      );
    }
    // A parser that read nothing would pass too: the tree's SQL names tables hundreds of times.
    expect(uses).toBeGreaterThan(300);
    expect(violations, `${violations.length} statements on another feature's tables`).toEqual([]);
  });
});

/**
 * The folder a source file belongs to for the import graph: features/<name>, a top-level folder
 * (realtime, http, db, test-support), or the top-level file itself (app.ts, composition.ts…).
 */
function folderOf(path: string): string {
  const [top = '', feature = ''] = relative(SRC, path).split(sep);
  return top === 'features' ? `features/${feature}` : top;
}

/**
 * The relative modules a file imports, `import type` included: a type-only cycle still means
 * neither folder can be understood, moved or tested without the other.
 */
function importedFiles(path: string): string[] {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) specifiers.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(path), specifier));
}

/** Folder → folders it imports, over the non-test sources of apps/server/src (tests are leaves). */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const path of sourceFiles(SRC)) {
    const from = folderOf(path);
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const target of importedFiles(path)) {
      if (!target.startsWith(SRC + sep)) continue;
      const to = folderOf(target);
      if (to !== from && !edges.has(to)) {
        edges.set(to, `${relative(SRC, path)} → ${relative(SRC, target)}`);
      }
    }
  }
  return graph;
}

/** Every elementary cycle's strongly connected component with more than one folder (Tarjan). */
function cyclicGroups(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    lowLink.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        connect(next);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(next)!));
      }
    }
    if (lowLink.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return groups;
}

describe('folder imports', () => {
  it('have no cycle between the folders of the server', () => {
    const graph = folderGraph();
    const report = cyclicGroups(graph).map((group) => {
      const edges = group.flatMap((from) =>
        [...(graph.get(from) ?? [])]
          .filter(([to]) => group.includes(to))
          .map(([to, example]) => `  ${from} → ${to} (${example})`),
      );
      return `cycle among ${group.join(', ')}:\n${edges.join('\n')}`;
    });
    expect(report.join('\n'), 'import cycles between server folders').toBe('');
  });
});
