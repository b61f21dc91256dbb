import { readFileSync } from 'node:fs';

type Texts = Record<string, unknown>;

const readJson = (path: string): Texts =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as Texts;

const isTexts = (value: unknown): value is Texts => typeof value === 'object' && value !== null;

/** `base` with `more`'s keys in it, nested keys merged (the app's `checkout` keys and its checkout namespace's). */
function merged(base: Texts, more: Texts): Texts {
  const result = { ...base };
  for (const [key, value] of Object.entries(more)) {
    const existing = result[key];
    result[key] = isTexts(existing) && isTexts(value) ? merged(existing, value) : value;
  }
  return result;
}

/**
 * English texts: the app's, and the namespaces the chat, account and competitions (interaction)
 * and the checkout screens (checkout) use.
 */
const english = [
  '../../apps/web/src/locales/interaction/en.json',
  '../../apps/web/src/locales/checkout/en.json',
].reduce((texts, path) => merged(texts, readJson(path)), readJson('../../apps/web/src/locales/en.json'));

/** The English text at a dotted key (`chat.send`), so a test finds what a shopper reads; throws for a missing one. */
export function englishText(path: string): string {
  const value = path.split('.').reduce<unknown>((node, key) => (node as Texts)[key], english);
  if (typeof value !== 'string') throw new Error(`no English text at ${path}`);
  return value;
}

/** One locale file of the web app (`en`, `da`, `studio-shows/en`…): what a shopper or the staff read. */
export const webLocale = (name: string): Texts => readJson(`../../apps/web/src/locales/${name}.json`);
