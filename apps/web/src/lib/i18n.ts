import { DEFAULT_LOCALE, type Locale, resolveLocale, SUPPORTED_LOCALES } from '@vitrine/domain';
import i18next from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import { logFailure } from './debug.ts';

/** Where the viewer's language choice is kept between page loads (read first after a ?lang). */
export const LANGUAGE_STORAGE_KEY = 'vitrine-language';

/** Each language named in itself, so a viewer finds their own whatever language is showing. */
export const LANGUAGE_ENDONYMS: Record<Locale, string> = {
  en: 'English',
  da: 'Dansk',
  sv: 'Svenska',
  no: 'Norsk',
  fi: 'Suomi',
  nl: 'Nederlands',
  pl: 'Polski',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  ko: '한국어',
};

function initialLanguage(): Locale {
  const fromQuery = new URLSearchParams(window.location.search).get('lang');
  if (fromQuery) return resolveLocale(fromQuery);
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (stored) return resolveLocale(stored);
  } catch {
    // Storage is blocked in some embedded contexts; fall through to the browser language.
  }
  return resolveLocale(navigator.language);
}

/**
 * Texts only the checkout screens use: a namespace of their own that loads with them (see
 * features/checkout/checkout-lazy-routes.tsx), so the player's first bundle does not carry it.
 */
export const CHECKOUT_NAMESPACE = 'checkout';
/** Texts of the chat, accounts and competitions (features/interaction), loaded with their code. */
export const INTERACTION_NAMESPACE = 'interaction';

/** English ships in the bundle; the other ten languages, and the checkout namespace, load on demand. */
export async function initI18n(): Promise<void> {
  await i18next
    .use(initReactI18next)
    .use(
      resourcesToBackend((language: string, namespace: string) =>
        namespace === CHECKOUT_NAMESPACE
          ? import(`../locales/checkout/${language}.json`)
          : namespace === INTERACTION_NAMESPACE
            ? import(`../locales/interaction/${language}.json`)
            : import(`../locales/${language}.json`),
      ),
    )
    .init({
      resources: { en: { translation: en } },
      partialBundledLanguages: true,
      lng: initialLanguage(),
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: [...SUPPORTED_LOCALES],
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  document.documentElement.lang = i18next.language;
}

export async function changeLanguage(language: Locale): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not persisted when storage is blocked; the choice still applies to this visit.
  }
  try {
    await i18next.changeLanguage(language);
    document.documentElement.lang = language;
  } catch (error) {
    logFailure('changing language failed', error);
  }
}
