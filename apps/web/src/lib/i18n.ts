import { DEFAULT_LOCALE, type LanguageCandidates, resolveLocale, startLanguage } from '@vitrine/domain';
import { LOCALES, type Locale } from '@vitrine/protocol/vocabulary';
import i18next from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import { logFailure } from './debug.ts';

/** Where the viewer's language choice is kept between page loads (read first after a ?lang). */
export const LANGUAGE_STORAGE_KEY = 'vitrine-language';

/** The languages known so far by where they came from; the player shows the strongest (domain startLanguage). */
const candidates: LanguageCandidates = {};

function initialLanguage(): Locale {
  candidates.query = new URLSearchParams(window.location.search).get('lang');
  try {
    candidates.picked = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // Storage is blocked in some embedded contexts; the saved or browser language applies.
  }
  candidates.browser = navigator.language;
  const start = startLanguage(candidates);
  // A ?lang is an explicit choice: links inside the app drop it, and a reload, the next page or a
  // second tab must keep it (issue 27), so it is kept as this device's pick.
  if (start.source === 'query') rememberPick(start.locale);
  return start.locale;
}

/** Keeps a language the shopper chose on this device (storage may be blocked when embedded). */
export function rememberPick(language: Locale) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not persisted when storage is blocked; the choice still applies to this visit.
  }
}

/**
 * Texts only the checkout screens use: a namespace of their own that loads with them (see
 * features/checkout/checkout-lazy-routes.tsx), so the player's first bundle does not carry it.
 */
export const CHECKOUT_NAMESPACE = 'checkout';
/** Texts of the chat, accounts and competitions (features/interaction), loaded with their code. */
export const INTERACTION_NAMESPACE = 'interaction';

/** Loaders of namespaces that parts loaded later bring along, by namespace prefix. */
const namespaceLoaders = new Map<string, (language: string, namespace: string) => Promise<unknown>>();

/**
 * Lets a lazily loaded part (the studio) load its own namespaces (those starting with `prefix`):
 * the map of their files then travels with that part, not in the player's first bundle.
 */
export function registerNamespaceLoader(
  prefix: string,
  load: (language: string, namespace: string) => Promise<unknown>,
): void {
  namespaceLoaders.set(prefix, load);
}

/** English ships in the bundle; the other ten languages, and the checkout namespace, load on demand. */
export async function initI18n(): Promise<void> {
  await i18next
    .use(initReactI18next)
    .use(
      resourcesToBackend((language: string, namespace: string) => {
        if (namespace === CHECKOUT_NAMESPACE) return import(`../locales/checkout/${language}.json`);
        if (namespace === INTERACTION_NAMESPACE) return import(`../locales/interaction/${language}.json`);
        const loader = [...namespaceLoaders].find(([prefix]) => namespace.startsWith(prefix))?.[1];
        return loader ? loader(language, namespace) : import(`../locales/${language}.json`);
      }),
    )
    .init({
      resources: { en: { translation: en } },
      partialBundledLanguages: true,
      lng: initialLanguage(),
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: [...LOCALES],
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  document.documentElement.lang = i18next.language;
}

/** Shows a language the viewer picked or the host page asked for (it applies whatever showed before). */
export async function changeLanguage(language: Locale, source: 'picked' | 'host' = 'picked'): Promise<void> {
  candidates[source] = language;
  rememberPick(language);
  try {
    await i18next.changeLanguage(language);
    document.documentElement.lang = language;
  } catch (error) {
    logFailure('changing language failed', error);
  }
}

/**
 * The language the shopper saved for the store (their reservation): shown when nothing stronger
 * chose one, i.e. no ?lang, no host language_change and no pick in this browser.
 */
export const followSavedLanguage = (language: Locale): Promise<void> => followCandidate('saved', language);

/**
 * The store's own language: shown when nothing else chose one and the browser's language is not
 * one Vitrine speaks (domain startLanguage). Called once the store's details have loaded.
 */
export const followStoreLanguage = (language: Locale): Promise<void> => followCandidate('store', language);

async function followCandidate(source: 'saved' | 'store', language: Locale): Promise<void> {
  candidates[source] = language;
  const start = startLanguage(candidates);
  if (start.source !== source || start.locale === resolveLocale(i18next.language)) return;
  try {
    await i18next.changeLanguage(start.locale);
    document.documentElement.lang = start.locale;
  } catch (error) {
    logFailure('changing language failed', error);
  }
}
