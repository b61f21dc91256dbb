import { INTL_TAG_BY_LOCALE } from '@vitrine/domain';
import type { CurrencyAmount } from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';
import { useMemo } from 'react';
import { useLocale } from '../../../lib/use-locale.ts';

/** Numbers of the analytics pages in the studio's language: counts, shares, durations, money. */
export function useAnalyticsFormat() {
  const format = useLocale();
  return useMemo(() => {
    const count = new Intl.NumberFormat(INTL_TAG_BY_LOCALE[format.locale]);
    const percent = new Intl.NumberFormat(INTL_TAG_BY_LOCALE[format.locale], {
      style: 'percent',
      maximumFractionDigits: 1,
    });
    return {
      ...format,
      count: (value: number) => count.format(value),
      percent: (share: number) => percent.format(share),
      /** Seconds as h:mm:ss, or m:ss under an hour. */
      duration: (seconds: number) => {
        const whole = Math.max(0, Math.round(seconds));
        const h = Math.floor(whole / 3600);
        const m = Math.floor((whole % 3600) / 60);
        const s = String(whole % 60).padStart(2, '0');
        return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
      },
      /** Amounts in several currencies, joined; "—" for none. */
      amounts: (amounts: readonly CurrencyAmount[]) =>
        amounts.length === 0
          ? '—'
          : amounts.map((entry) => format.money(entry.amount, entry.currency as Currency)).join(' · '),
    };
  }, [format]);
}
