import { resolveLocale } from '@vitrine/domain';
import { LOCALES, type Locale } from '@vitrine/protocol/vocabulary';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGE_ENDONYMS } from '../lib/i18n.ts';

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
