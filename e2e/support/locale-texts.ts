import { readFileSync } from 'node:fs';

const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as Record<string, unknown>;

/** English texts: the app's, and the interaction namespace the chat, account and competitions use. */
const english = {
  ...readJson('../../apps/web/src/locales/en.json'),
  ...readJson('../../apps/web/src/locales/interaction/en.json'),
};

/** The English text at a dotted key (`chat.send`), so a test finds what a shopper reads; throws for a missing one. */
export function englishText(path: string): string {
  const value = path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], english);
  if (typeof value !== 'string') throw new Error(`no English text at ${path}`);
  return value;
}
