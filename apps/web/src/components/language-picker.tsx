import { resolveLocale } from '@vitrine/domain';
import { LOCALES, type Locale } from '@vitrine/protocol/vocabulary';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../lib/i18n.ts';

/**
 * Each language named in itself, so a viewer finds their own whatever language is showing. Here,
 * with the menu (shop page, checkout), not in i18n.ts: the player's first bundle has no menu.
 */
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

/** Switches the viewer's language, and with it the currency prices are shown in. */
export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  const current = resolveLocale(i18n.resolvedLanguage ?? i18n.language);
  return (
    <label className="language-picker">
      <span className="visually-hidden">{t('app.language')}</span>
      {/* A name, as ?lang: Chromium reports a form field with neither id nor name as a page issue. */}
      <select
        name="lang"
        value={current}
        aria-label={t('app.language')}
        onChange={(event) => void changeLanguage(event.target.value as Locale)}
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {LANGUAGE_ENDONYMS[locale]}
          </option>
        ))}
      </select>
    </label>
  );
}
