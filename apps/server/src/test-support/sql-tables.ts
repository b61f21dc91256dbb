import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadModule, parseSync, scanSync } from 'libpg-query';
import ts from 'typescript';

/**
 * Which tables the SQL in a TypeScript source names, read with PostgreSQL's own parser
 * (libpg-query, the real parser compiled to WASM) rather than a regular expression, so lower
 * case, quoted names, `USING`, comma joins, sub-queries and CTEs are all seen as PostgreSQL sees
 * them. Used by architecture.test.ts for the table-ownership rule.
 *
 * A string literal, a template literal or a `+` chain of strings is SQL when PostgreSQL parses
 * it. A `${…}` is replaced by the constant it names when that can be resolved (a `const` of this
 * file or one imported from a relative module, an object constant's property); otherwise by a
 * few stand-ins tried in turn (an identifier, nothing, an assignment, a row, the branches of a
 * `cond ? 'a' : 'b'`), and a stand-in that ends up where a table name goes is reported, since
 * the rule cannot know which table it is. A literal that parses under no stand-in is still read
 * token by token with PostgreSQL's lexer: if it holds SQL words, a known table's name where a
 * relation goes (after FROM, JOIN, INTO, UPDATE, USING, TABLE, ONLY or a comma, or first in the
 * fragment) counts as a use, so a fragment (`' JOIN pages p ON …'`, `', pages p'`) cannot slip
 * by either, while prose that merely mentions "products from the store" is not SQL.
 */

export interface TableUse {
  line: number;
  table: string;
}

export interface SqlScan {
  uses: TableUse[];
  /** Statements whose table name the rule cannot resolve, with where and why. */
  unresolved: { line: number; expression: string }[];
}

let loaded: Promise<void> | undefined;
/** The parser is WASM: load it once before the first scan. */
export function loadSqlParser(): Promise<void> {
  loaded ??= loadModule();
  return loaded;
}

/** A piece of the SQL text and where it sits in the source, to report uses on their line. */
interface Piece {
  text: string;
  sourceStart: number;
  /** Stand-ins to try for an interpolation; undefined for literal text. */
  candidates?: string[];
  expression?: string;
}

const PLACEHOLDER = '__sql_interp_';
/** Words that make an unparsable literal a SQL fragment worth reading token by token. */
const SQL_WORDS = new Set([
  'select',
  'from',
  'join',
  'into',
  'update',
  'delete',
  'insert',
  'using',
  'table',
  'where',
]);
const STATEMENT_WORDS =
  /\b(?:select|insert|update|delete|merge|with|table|values|truncate|lock|copy|create|alter|drop)\b/i;
/** Text worth resolving interpolations for: it holds a statement or a clause word. */
const SQL_LIKE = new RegExp(`${STATEMENT_WORDS.source}|\\b(?:from|join|into|using|where)\\b`, 'i');
/** At most this many combinations of stand-ins are parsed for one literal. */
const MAX_TRIES = 256;

/** The parts of a `+` chain of strings, or undefined when the expression is not one. */
function concatenation(node: ts.Expression): ts.Expression[] | undefined {
  if (!ts.isBinaryExpression(node) || node.operatorToken.kind !== ts.SyntaxKind.PlusToken) return undefined;
  const parts = [
    ...(concatenation(node.left) ?? [node.left]),
    ...(concatenation(node.right) ?? [node.right]),
  ];
  return parts.some((part) => ts.isStringLiteralLike(part) || ts.isTemplateExpression(part))
    ? parts
    : undefined;
}

/** Resolves identifiers to the string constants they name: this file's, or a relative import's. */
type Binding = { expression: ts.Expression } | { path: string; exported: string };

class ConstantResolver {
  private readonly bindings = new WeakMap<ts.SourceFile, Map<string, Binding>>();

  constructor(
    private readonly readSource: (path: string) => string | undefined,
    private readonly files: Map<string, ts.SourceFile | undefined>,
  ) {}

  private fileAt(path: string): ts.SourceFile | undefined {
    if (!this.files.has(path)) {
      const text = this.readSource(path);
      this.files.set(
        path,
        text === undefined ? undefined : ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true),
      );
    }
    return this.files.get(path);
  }

  /** The string value of an expression in a file, or undefined when it is not a known constant. */
  value(expression: ts.Expression, file: ts.SourceFile, depth = 0): string | undefined {
    if (depth > 8) return undefined;
    if (ts.isStringLiteralLike(expression)) return expression.text;
    if (
      ts.isParenthesizedExpression(expression) ||
      ts.isAsExpression(expression) ||
      ts.isSatisfiesExpression(expression)
    ) {
      return this.value(expression.expression, file, depth + 1);
    }
    if (ts.isTemplateExpression(expression)) {
      let text = expression.head.text;
      for (const span of expression.templateSpans) {
        const part = this.value(span.expression, file, depth + 1);
        if (part === undefined) return undefined;
        text += part + span.literal.text;
      }
      return text;
    }
    const parts = concatenation(expression);
    if (parts) {
      const values = parts.map((part) => this.value(part, file, depth + 1));
      return values.every((value) => value !== undefined) ? values.join('') : undefined;
    }
    if (ts.isIdentifier(expression)) {
      const initializer = this.declaration(expression.text, file, depth);
      return initializer && this.value(initializer.expression, initializer.file, depth + 1);
    }
    if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
      const object = this.declaration(expression.expression.text, file, depth);
      let literal = object?.expression;
      while (literal && (ts.isAsExpression(literal) || ts.isSatisfiesExpression(literal)))
        literal = literal.expression;
      if (!object || !literal || !ts.isObjectLiteralExpression(literal)) return undefined;
      for (const property of literal.properties) {
        if (
          ts.isPropertyAssignment(property) &&
          property.name.getText(object.file) === expression.name.text
        ) {
          return this.value(property.initializer, object.file, depth + 1);
        }
      }
    }
    return undefined;
  }

  /** The initializer of a top-level or local `const name`, following a relative import. */
  private declaration(
    name: string,
    file: ts.SourceFile,
    depth: number,
  ): { expression: ts.Expression; file: ts.SourceFile } | undefined {
    const binding = this.bindingsOf(file).get(name);
    if (!binding || 'expression' in binding) return binding && { expression: binding.expression, file };
    const target = depth < 8 ? this.fileAt(binding.path) : undefined;
    return target && this.declaration(binding.exported, target, depth + 1);
  }

  /** A file's `const` initializers and relative named imports by name (the first of a name wins). */
  private bindingsOf(file: ts.SourceFile): Map<string, Binding> {
    let bindings = this.bindings.get(file);
    if (bindings) return bindings;
    const found = new Map<string, Binding>();
    const visit = (node: ts.Node) => {
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.initializer &&
        ts.isVariableDeclarationList(node.parent) &&
        node.parent.flags & ts.NodeFlags.Const &&
        !found.has(node.name.text)
      ) {
        found.set(node.name.text, { expression: node.initializer });
      } else if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const specifier = node.moduleSpecifier.text;
        const named = node.importClause?.namedBindings;
        if (!specifier.startsWith('.') || !named || !ts.isNamedImports(named)) return;
        const path = resolve(dirname(file.fileName), specifier.replace(/\.js$/, '.ts'));
        for (const element of named.elements) {
          found.set(element.name.text, { path, exported: element.propertyName?.text ?? element.name.text });
        }
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
    bindings = found;
    this.bindings.set(file, bindings);
    return bindings;
  }
}

/** An identifier as PostgreSQL folds it: quoted kept as written, unquoted in lower case. */
function foldIdentifier(name: string): string {
  return name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name.toLowerCase();
}

/** The last part of a (schema-qualified) relation name written in a string, as `'s.t'::regclass`. */
function relationInString(text: string): string {
  const parts = text.match(/"(?:[^"]|"")*"|[^.]+/g) ?? [text];
  return foldIdentifier(parts[parts.length - 1] ?? text);
}

/** Every relation a parse tree names, with its offset in the SQL: tables, views, sequences. */
function relationsOf(tree: unknown): { name: string; location: number }[] {
  const found: { name: string; location: number }[] = [];
  const stringsIn = (node: unknown, location: number) => {
    walkTree(node, (value) => {
      const sval = (value as { A_Const?: { sval?: { sval?: string }; location?: number } }).A_Const;
      if (typeof sval?.sval?.sval === 'string') {
        found.push({ name: relationInString(sval.sval.sval), location: sval.location ?? location });
      }
    });
  };
  walkTree(tree, (value) => {
    const record = value as Record<string, unknown>;
    if (typeof record.relname === 'string') {
      found.push({
        name: record.relname,
        location: typeof record.location === 'number' ? record.location : -1,
      });
    }
    // nextval('seq'), currval, setval and 'name'::regclass name a relation in a string.
    const call = record.FuncCall as {
      funcname?: { String?: { sval?: string } }[];
      args?: unknown[];
      location?: number;
    };
    const callName = call?.funcname?.at(-1)?.String?.sval;
    if (callName && ['nextval', 'currval', 'setval', 'pg_get_serial_sequence'].includes(callName)) {
      stringsIn(call.args?.[0], call.location ?? -1);
    }
    const cast = record.TypeCast as {
      arg?: unknown;
      typeName?: { names?: { String?: { sval?: string } }[] };
    };
    const castTo = cast?.typeName?.names?.at(-1)?.String?.sval;
    if (castTo === 'regclass') stringsIn(cast.arg, -1);
  });
  return found;
}

function walkTree(node: unknown, visit: (value: object) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walkTree(item, visit);
  } else if (node && typeof node === 'object') {
    visit(node);
    for (const value of Object.values(node)) walkTree(value, visit);
  }
}

/** The first combination of stand-ins under which PostgreSQL parses the pieces, if any. */
function parseWithStandIns(pieces: Piece[]): { text: string; offsets: number[]; tree: unknown } | undefined {
  const slots = pieces.filter((piece) => piece.candidates);
  const choice = slots.map(() => 0);
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    let text = '';
    const offsets: number[] = [];
    let slot = 0;
    for (const piece of pieces) {
      offsets.push(text.length);
      text += piece.candidates ? (piece.candidates[choice[slot++] ?? 0] ?? '') : piece.text;
    }
    try {
      return { text, offsets, tree: parseSync(text) };
    } catch {
      // Next combination: count in a mixed radix over each slot's candidates.
      let carry = slots.length - 1;
      while (carry >= 0 && (choice[carry] ?? 0) + 1 >= (slots[carry]?.candidates?.length ?? 1))
        choice[carry--] = 0;
      if (carry < 0) return undefined;
      choice[carry] = (choice[carry] ?? 0) + 1;
    }
  }
  return undefined;
}

/** Tokens after which a name is a relation: `FROM t`, `JOIN t`, `USING t`, `, t` (a comma join)… */
const BEFORE_RELATION = new Set(['from', 'join', 'into', 'update', 'using', 'table', 'only', ',']);

/**
 * The names of a SQL fragment that stand where a relation goes, as PostgreSQL's lexer reads it:
 * after FROM, JOIN, INTO, UPDATE, USING, TABLE, ONLY or a comma, or first in the fragment (the
 * rest of a `'SELECT … FROM ' + …`). Empty when the text holds no SQL word (prose, a path).
 */
function relationTokens(text: string, sqlAround: boolean): { name: string; at: number }[] {
  let tokens: { text: string; at: number }[];
  try {
    tokens = scanSync(text).tokens.map((token) => ({ text: token.text, at: token.start }));
  } catch {
    // Not even SQL tokens (prose with an open quote): read words and commas plainly.
    tokens = [...text.matchAll(/"(?:[^"]|"")*"|[A-Za-z_][\w$]*|,/g)].map((match) => ({
      text: match[0],
      at: match.index ?? 0,
    }));
  }
  if (!sqlAround && !tokens.some((token) => SQL_WORDS.has(token.text.toLowerCase()))) return [];
  return tokens
    .filter((_, index) => index === 0 || BEFORE_RELATION.has(tokens[index - 1]?.text.toLowerCase() ?? ''))
    .map((token) => ({ name: foldIdentifier(token.text), at: token.at }));
}

/** Imported files already parsed, shared by the scans of one run (the tree does not change under it). */
const fileCache = new Map<string, ts.SourceFile | undefined>();

/**
 * The tables (of `tables`) that a source file's SQL names, and the statements whose table name
 * comes from an interpolation it cannot resolve. Call `loadSqlParser()` first.
 */
export function sqlTablesNamed(
  path: string,
  source: string,
  tables: ReadonlySet<string>,
  readSource: (path: string) => string | undefined = (file) =>
    existsSync(file) ? readFileSync(file, 'utf8') : undefined,
): SqlScan {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const resolver = new ConstantResolver((other) => (other === path ? source : readSource(other)), fileCache);
  const lineAt = (position: number) => file.getLineAndCharacterOfPosition(position).line + 1;
  const scan: SqlScan = { uses: [], unresolved: [] };
  const seen = new Set<ts.Node>();

  const interpolation = (
    expression: ts.Expression,
    index: number,
    before: string,
    sqlLike: boolean,
  ): Piece => {
    const sourceStart = expression.getStart(file);
    const value = sqlLike ? resolver.value(expression, file) : undefined;
    if (value !== undefined) return { text: value, sourceStart };
    const standIn = `${PLACEHOLDER}${index}`;
    // `$${n}` is a parameter number; otherwise try an identifier, nothing, a SET list, a row,
    // and the strings a `cond ? 'a' : ''` may give.
    const branches: string[] = [];
    ts.forEachChild(expression, function collect(node) {
      if (ts.isStringLiteralLike(node)) branches.push(node.text);
      else ts.forEachChild(node, collect);
    });
    if (ts.isStringLiteralLike(expression)) branches.push(expression.text);
    const candidates = before.endsWith('$')
      ? ['1']
      : [...new Set([standIn, ...branches, '', `${standIn} = 1`, `(${standIn})`])];
    return { text: '', sourceStart, candidates, expression: expression.getText(file) };
  };

  const read = (node: ts.Node, pieces: Piece[]) => {
    // Text without a statement or clause word (prose, a path, a key) names no table: not lexed.
    const joined = pieces.map((piece) => piece.text).join(' ');
    if (!SQL_LIKE.test(joined)) return;
    const statement = STATEMENT_WORDS.test(joined);
    const parsed = statement ? parseWithStandIns(pieces) : undefined;
    if (parsed) {
      const bytes = Buffer.from(parsed.text);
      for (const relation of relationsOf(parsed.tree)) {
        // libpg-query reports byte offsets; map one back to its piece of source.
        const at = relation.location < 0 ? 0 : bytes.subarray(0, relation.location).toString().length;
        let index = pieces.length - 1;
        while (index > 0 && (parsed.offsets[index] ?? 0) > at) index--;
        const piece = pieces[index];
        const position = piece?.candidates
          ? piece.sourceStart
          : (piece?.sourceStart ?? node.getStart(file)) + Math.max(0, at - (parsed.offsets[index] ?? 0));
        if (relation.name.includes(PLACEHOLDER)) {
          scan.unresolved.push({ line: lineAt(position), expression: piece?.expression ?? relation.name });
        } else if (tables.has(relation.name)) {
          scan.uses.push({ line: lineAt(position), table: relation.name });
        }
      }
      return;
    }
    // Not a statement: a fragment, prose or a path. Read its literal text token by token.
    const sqlAround = relationTokens(pieces.map((piece) => piece.text).join(' '), false).length > 0;
    for (const piece of pieces) {
      if (piece.candidates) continue;
      for (const word of relationTokens(piece.text, sqlAround)) {
        if (tables.has(word.name))
          scan.uses.push({ line: lineAt(piece.sourceStart + word.at), table: word.name });
      }
    }
  };

  const visit = (node: ts.Node) => {
    if (seen.has(node)) return;
    if (
      ts.isStringLiteralLike(node) &&
      !ts.isImportDeclaration(node.parent) &&
      !ts.isExportDeclaration(node.parent)
    ) {
      read(node, [{ text: node.text, sourceStart: node.getStart(file) + 1 }]);
      return;
    }
    if (ts.isTemplateExpression(node)) {
      const pieces: Piece[] = [{ text: node.head.text, sourceStart: node.head.getStart(file) + 1 }];
      const sqlLike = SQL_LIKE.test(
        [node.head, ...node.templateSpans.map((span) => span.literal)].map((part) => part.text).join(' '),
      );
      node.templateSpans.forEach((span, index) => {
        pieces.push(
          interpolation(span.expression, index, pieces.map((piece) => piece.text).join(''), sqlLike),
        );
        pieces.push({ text: span.literal.text, sourceStart: span.literal.getStart(file) + 1 });
      });
      read(node, pieces);
      // Strings inside the interpolations are read on their own too.
      for (const span of node.templateSpans) ts.forEachChild(span, visit);
      return;
    }
    const parts = ts.isExpression(node) ? concatenation(node) : undefined;
    if (parts) {
      const pieces: Piece[] = [];
      const sqlLike = SQL_LIKE.test(
        parts.map((part) => (ts.isStringLiteralLike(part) ? part.text : '')).join(' '),
      );
      parts.forEach((part, index) => {
        if (ts.isStringLiteralLike(part)) {
          pieces.push({ text: part.text, sourceStart: part.getStart(file) + 1 });
          seen.add(part);
        } else {
          pieces.push(interpolation(part, index, pieces.map((piece) => piece.text).join(''), sqlLike));
        }
      });
      read(node, pieces);
      for (const part of parts) if (!seen.has(part)) visit(part);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return scan;
}

/** The tables and sequences a migration creates, as PostgreSQL parses it. Call `loadSqlParser()` first. */
export function sqlTablesCreated(migration: string): string[] {
  const created: string[] = [];
  walkTree(parseSync(migration), (value) => {
    const record = value as {
      CreateStmt?: { relation?: { relname?: string } };
      CreateSeqStmt?: { sequence?: { relname?: string } };
    };
    const name = record.CreateStmt?.relation?.relname ?? record.CreateSeqStmt?.sequence?.relname;
    if (name) created.push(name);
  });
  return created;
}
