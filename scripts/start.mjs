// `npm start` (and the command-line tools: `npm run studio:owner`, `studio:link`, `backup`, `restore`, `doctor`): runs the
// compiled server, or one of its command-line tools, from dist/server/. In a source checkout the
// build steps whose inputs changed run first (scripts/build.mjs --changed; nothing when the build
// is up to date); a production install (dist/ without the sources) runs what it has.
//
//   node scripts/start.mjs [main | studio-owner | studio-link | backup | restore | doctor] [arguments of the tool…]
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ENTRIES = ['main', 'studio-owner', 'studio-link', 'backup', 'restore', 'doctor'];
const root = fileURLToPath(new URL('../', import.meta.url));
const entry = ENTRIES.includes(process.argv[2] ?? '') ? process.argv[2] : 'main';
const entryFile = `${root}dist/server/${entry}.mjs`;

if (existsSync(`${root}apps/server/src/main.ts`)) {
  const { buildRelease } = await import('./build.mjs');
  try {
    // Build lines go to standard error: a tool's standard output is its answer.
    await buildRelease({ changedOnly: true, log: (line) => process.stderr.write(`${line}\n`) });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
} else if (!existsSync(entryFile)) {
  process.stderr.write(`${entryFile} is missing: this is neither a source checkout nor a built release.\n`);
  process.exit(1);
}

// The entry reads its own arguments (process.argv.slice(2)), as when it is run directly.
process.argv = [
  process.argv[0] ?? process.execPath,
  entryFile,
  ...process.argv.slice(entry === process.argv[2] ? 3 : 2),
];
await import(pathToFileURL(entryFile).href);
