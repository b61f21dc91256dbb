// `npm start` (and the command-line tools: `npm run studio:owner`, `studio:link`, `backup`, `restore`, `doctor`): runs the
// compiled server, or one of its command-line tools, from dist/server/. In a source checkout the
// build steps whose inputs changed run first (scripts/build.mjs --changed; nothing when the build
// is up to date); a production install (dist/ without the sources) runs what it has.
//
//   node scripts/start.mjs [main | studio-owner | studio-link | backup | restore | doctor | media] [arguments of the tool…]
import { existsSync } from 'node:fs';
import nodeModule from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Node keeps the compiled code of the modules it loads from here on (the server's bundle and its
// packages) on disk, in NODE_COMPILE_CACHE or the system's temporary folder, and a later start
// reuses it instead of parsing and compiling them again (issue 28's start-up time: bench/start).
// An entry whose file changed is compiled afresh; a cache that cannot be written is only slower.
nodeModule.enableCompileCache?.();

const ENTRIES = ['main', 'studio-owner', 'studio-link', 'backup', 'restore', 'doctor', 'media'];
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
