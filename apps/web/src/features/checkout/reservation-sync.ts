import { shownCurrency } from '@vitrine/domain';
import type { UserReservation, WidgetContext } from '@vitrine/protocol';
import type { Locale } from '@vitrine/protocol/vocabulary';
import { logFailure } from '../../lib/debug.ts';
import { callAsViewer } from '../../lib/session.ts';

/**
 * The shopper's reservation (spec §3 "Reservation", §7 load/saveUserReservation): the language
 * and currency they shop in, per store. The web saves what the shopper is shown, so the server
 * prices an open cart in it and the checkout (and its payment page) speaks it; see the rule in
 * packages/domain currency-rules. Loaded on demand with the cart panel and the checkout screens.
 */

export interface ReservationRef {
  pageUid: string;
  campaignUid: string;
  userUid: string;
  context?: WidgetContext;
}

export const loadUserReservation = (ref: ReservationRef) =>
  callAsViewer('loadUserReservation', {
    pageUid: ref.pageUid,
    campaign: ref.campaignUid,
    user: ref.userUid,
    context: ref.context ?? 'checkout',
  });

export const saveUserReservation = (
  ref: ReservationRef,
  changes: Partial<Pick<UserReservation, 'language' | 'currency' | 'showCheckoutPresentation'>>,
) =>
  callAsViewer('saveUserReservation', {
    pageUid: ref.pageUid,
    campaign: ref.campaignUid,
    user: ref.userUid,
    context: ref.context ?? 'checkout',
    ...changes,
  });

/** What was last made the reservation in this tab, per shopper and campaign (saves once per change). */
const synced = new Map<string, string>();

/**
 * Makes the shopper's reservation the language shown and its currency: loads it, and saves when
 * it differs (the server then reprices an open cart). Answers whether anything was saved, so the
 * caller reloads what shows prices. Failures are logged only (spec §8), leaving state as it was.
 */
export async function followShownLanguage(ref: ReservationRef, locale: Locale): Promise<boolean> {
  const key = `${ref.userUid}/${ref.pageUid}/${ref.campaignUid}`;
  const wanted = `${locale}/${shownCurrency(locale)}`;
  if (synced.get(key) === wanted) return false;
  try {
    const reservation = await loadUserReservation(ref);
    synced.set(key, wanted);
    // A language the reservation only fell back to (the checkout's, the account's, the store's) is
    // not the shopper's saved choice: it is saved, or a device that forgot the pick loses it.
    if (
      reservation.languageSaved &&
      reservation.language === locale &&
      reservation.currency === shownCurrency(locale)
    )
      return false;
    await saveUserReservation(ref, { language: locale, currency: shownCurrency(locale) });
    return true;
  } catch (error) {
    synced.delete(key);
    logFailure('saving the reservation failed', error);
    return false;
  }
}
