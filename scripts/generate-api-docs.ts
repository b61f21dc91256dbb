// Rewrites the generated part of docs/api.md from the call and read catalogues of packages/protocol.
import { readFileSync, writeFileSync } from 'node:fs';
import { withGeneratedReference } from '../apps/server/src/http/api-docs.ts';

const path = new URL('../docs/api.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withGeneratedReference(before);
writeFileSync(path, after);
console.log(before === after ? 'docs/api.md was up to date' : 'docs/api.md regenerated');
