import { CURRENCY_BY_LOCALE, formatMoney, INTL_TAG_BY_LOCALE, resolveLocale } from '@vitrine/domain';
import type { Currency, Locale } from '@vitrine/protocol/vocabulary';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The viewer's language with its currency (spec §1) and formatters bound to both. */
export function useLocale() {
  const { i18n } = useTranslation();
  const locale: Locale = resolveLocale(i18n.resolvedLanguage ?? i18n.language);
  return useMemo(() => {
    const tag = INTL_TAG_BY_LOCALE[locale];
    const dateTime = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' });
    const date = new Intl.DateTimeFormat(tag, { dateStyle: 'medium' });
    const time = new Intl.DateTimeFormat(tag, { timeStyle: 'short' });
    return {
      locale,
      currency: CURRENCY_BY_LOCALE[locale] as Currency,
      money: (minorUnits: number, currency: Currency) => formatMoney(minorUnits, currency, locale),
      dateTime: (timestamp: number) => dateTime.format(timestamp),
      date: (timestamp: number) => date.format(timestamp),
      time: (timestamp: number) => time.format(timestamp),
    };
  }, [locale]);
}
