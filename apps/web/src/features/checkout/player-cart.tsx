import { loadsCart, PING_INTERVAL_MS, resolveLocale } from '@vitrine/domain';
import type { CartUpdateResponse, CheckoutReservationDoc, EventProduct } from '@vitrine/protocol';
import type { WidgetContext } from '@vitrine/protocol/vocabulary';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useNavigation, useParams } from 'react-router';
import { logFailure } from '../../lib/debug.ts';
import { followSavedLanguage } from '../../lib/i18n.ts';
import { getRealtimeClient } from '../../lib/realtime/use-live-query.ts';
import { currentSession, onSessionChange } from '../../lib/session.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { type AddOutcome, failedOutcome } from './add-feedback.tsx';
import { addSingle, changeCheckoutProductQuantity, ping } from './cart-api.ts';
import { checkoutPagePath, checkoutRouteChange } from './checkout-route.ts';
import type { PlayerCart, ReservationLine } from './player-cart-model.ts';
import { followShownLanguage, loadUserReservation } from './reservation-sync.ts';
import './player-cart.css';

/**
 * The player's built-in cart (no host page cart): add to it, see it, change it. The reservation
 * comes from the `checkout` live query, so every open tab of the viewer shows the same cart.
 * Kept small: it is part of the player's first bundle; the checkout screens load on demand.
 */

const subscribeSession = (onChange: () => void) => onSessionChange(onChange);
const sessionUserUid = () => currentSession()?.user.uid ?? null;
const sessionIsAnonymous = () => currentSession()?.user.isAnonymous ?? true;

/** Campaigns in which this browser's anonymous viewer made a cart (see usePlayerCart). */
const OWN_CARTS_KEY = 'vitrine-own-carts';
const MAX_REMEMBERED_CARTS = 50;

function ownCarts(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(OWN_CARTS_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}

function rememberOwnCart(key: string): void {
  try {
    const carts = ownCarts().filter((entry) => entry !== key);
    localStorage.setItem(OWN_CARTS_KEY, JSON.stringify([key, ...carts].slice(0, MAX_REMEMBERED_CARTS)));
  } catch {
    // Blocked storage: the cart is still followed in this tab, from the add's answer on.
  }
}

/**
 * The cart of the viewer in a campaign. Spec §4 loads carts for logged-in viewers and for
 * anonymous ones in the on_site context; an anonymous viewer elsewhere gets the cart they made
 * themselves in this browser (remembered at their first add), so it follows them across tabs.
 * The live reservation then follows every change, from any tab.
 */
export function usePlayerCart({
  pageUid,
  campaignUid,
  context,
  enabled,
}: {
  pageUid: string;
  campaignUid: string;
  context: WidgetContext;
  enabled: boolean;
}): PlayerCart {
  const userUid = useSyncExternalStore(subscribeSession, sessionUserUid, sessionUserUid);
  const anonymous = useSyncExternalStore(subscribeSession, sessionIsAnonymous, sessionIsAnonymous);
  const cartKey = `${pageUid}/${campaignUid}`;
  const [madeHere, setMadeHere] = useState(() => ownCarts().includes(cartKey));
  const [reservation, setReservation] = useState<CheckoutReservationDoc | null | undefined>(undefined);
  const [failures, setFailures] = useState(0);
  // The currency the product cards show: the cart is charged in it (domain currency-rules).
  const { currency, locale } = useLocale();
  const loads = enabled && userUid !== null && (loadsCart(context, anonymous) || madeHere);

  useEffect(() => {
    if (!loads || !userUid) {
      setReservation(null);
      return;
    }
    return getRealtimeClient().subscribe<CheckoutReservationDoc>(
      'checkout',
      { pageUid, campaignUid, userUid },
      (state) => {
        if (state.status === 'SUBSCRIBED') setReservation(state.docs[0] ?? null);
        // A refused or failed subscription leaves the cart as it was (spec §8: logged only).
        if (state.status === 'ERROR' || state.status === 'TIMED_OUT') {
          logFailure('loading the cart failed', state.error);
          setReservation((current) => (current === undefined ? null : current));
        }
      },
    );
  }, [loads, userUid, pageUid, campaignUid]);

  // A returning shopper starts in the language (and so the currency) they saved for the store,
  // unless a ?lang, the host page or a pick in this browser chose one (domain startLanguage).
  useEffect(() => {
    if (!enabled || !userUid) return;
    let current = true;
    loadUserReservation({ pageUid, campaignUid, userUid, context }).then(
      (saved) => {
        if (current && saved.languageSaved) void followSavedLanguage(resolveLocale(saved.language));
      },
      (error: unknown) => logFailure('loading the saved language failed', error),
    );
    return () => {
      current = false;
    };
  }, [enabled, userUid, pageUid, campaignUid, context]);

  const applyAnswer = useCallback((answer: CartUpdateResponse) => {
    // The live query brings the same document a moment later; showing it now keeps the cart snappy.
    setReservation({ ...answer.reservation, checkoutUid: answer.checkoutUid });
  }, []);

  const add = useCallback(
    async (productUid: string, variantUid: string | null): Promise<AddOutcome> => {
      try {
        const answer = await addSingle({
          productUid,
          variantUid,
          quantity: 1,
          context,
          pageUid,
          campaignUid,
          currency,
        });
        if (answer.status === 'added') {
          applyAnswer(answer);
          rememberOwnCart(cartKey);
          setMadeHere(true);
          // The shopper's language becomes her saved preference with her first add, so the cart,
          // a reload on a device that forgot the pick and the e-mails all speak it (issue 27).
          // The add itself may have signed the viewer in: the session says who she is now.
          const owner = userUid ?? currentSession()?.user.uid ?? null;
          if (owner) void followShownLanguage({ pageUid, campaignUid, userUid: owner, context }, locale);
        }
        return answer.status;
      } catch (error) {
        logFailure('adding to the cart failed', error);
        return failedOutcome(error);
      }
    },
    [applyAnswer, context, pageUid, campaignUid, cartKey, currency, locale, userUid],
  );

  // A reservation of another user (the viewer just signed in or out) is not this viewer's cart.
  const current = reservation && reservation.userUid !== userUid ? undefined : reservation;
  const checkoutUid = current === undefined ? undefined : (current?.checkoutUid ?? null);
  const setQuantity = useCallback(
    async (line: ReservationLine, quantity: number): Promise<AddOutcome> => {
      if (!checkoutUid) return 'error';
      try {
        const answer = await changeCheckoutProductQuantity({
          pageUid,
          campaignUid,
          checkoutUid,
          productUid: line.mainProduct,
          variantUid: line.variantUid,
          quantity,
        });
        applyAnswer(answer);
        return answer.status;
      } catch (error) {
        logFailure('changing the cart quantity failed', error);
        const outcome = failedOutcome(error);
        if (outcome === 'error') setFailures((count) => count + 1);
        return outcome;
      }
    },
    [applyAnswer, checkoutUid, pageUid, campaignUid],
  );

  // Spec §7: on-site and own-brand players tell the server every 30 s that the shopper is still there.
  const pings = (context === 'on_site' || context === 'own-brand') && typeof checkoutUid === 'string';
  useEffect(() => {
    if (!pings || !checkoutUid) return;
    const timer = setInterval(() => {
      ping({ action: 'setLastSeenOnCheckout', pageUid, campaignUid, checkoutUid }).catch((error: unknown) =>
        logFailure('ping failed', error),
      );
    }, PING_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [pings, pageUid, campaignUid, checkoutUid]);

  const hasLines = (current?.reservations.length ?? 0) > 0;
  useEffect(() => {
    if (hasLines) void import('./cart-panel.tsx');
  }, [hasLines]);

  return useMemo(() => {
    const lines = current?.reservations ?? [];
    return {
      reservation: current ?? null,
      checkoutUid,
      itemCount: lines.reduce((sum, line) => sum + line.qty, 0),
      checkoutPath: checkoutUid ? checkoutPagePath(campaignUid, checkoutUid) : null,
      add,
      setQuantity,
      updateError: failures === 0 ? null : failures === 1 ? 'single' : 'multiple',
      dismissUpdateError: () => setFailures(0),
    };
  }, [current, checkoutUid, campaignUid, add, setQuantity, failures]);
}

/**
 * Keeps the widget route in step with the cart (spec §2): a found cart replaces the route with its
 * checkout variant, an unloaded one returns to the variant without. Routes without a campaign
 * (multi-event) are left alone.
 */
export function useCheckoutRouteSync(checkoutUid: string | null | undefined, active: boolean): void {
  const params = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  // Only while no navigation is under way: a new one cancels a pending one, so this replace, made
  // while the shopper's own click was still loading (the cart's link to the checkout fetches its
  // routes and code first), left her on the player. Once the router is idle again, it follows.
  const idle = useNavigation().state === 'idle';
  const target = active ? checkoutRouteChange(params, checkoutUid) : null;
  useEffect(() => {
    if (idle && target && target !== location.pathname) {
      void navigate(
        { pathname: target, search: location.search },
        { replace: true, preventScrollReset: true },
      );
    }
  }, [idle, target, location.pathname, location.search, navigate]);
}

/** The cart button over the video on wide screens; phones have it in the mobile menu. */
export function CartButton({ count, open, onToggle }: { count: number; open: boolean; onToggle(): void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="player-cart-button"
      aria-pressed={open}
      title={t('checkout.cart.open')}
      onClick={onToggle}
    >
      {/* The name is text, not aria-label, so it contains the count shown (WCAG "label in name"). */}
      <span className="visually-hidden">{t('checkout.cart.open')}</span>
      <span aria-hidden="true" className="host-controls__icon host-controls__icon--cart" />
      {count > 0 && (
        <span className="cart-count" data-testid="cart-count">
          {count}
        </span>
      )}
    </button>
  );
}

const LazyCartPanel = lazy(() =>
  import('./cart-panel.tsx').then((module) => ({ default: module.CartPanel })),
);

/**
 * The cart's lines, total and the way to the checkout. Its code loads when the cart first opens
 * (or once the cart has something in it), keeping the player's first bundle small.
 */
export function CartPanel(props: { cart: PlayerCart; products?: readonly EventProduct[] }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<p className="panel-empty">{t('app.loading')}</p>}>
      <LazyCartPanel {...props} />
    </Suspense>
  );
}
