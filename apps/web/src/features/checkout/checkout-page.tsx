import {
  availableCheckoutSteps,
  CHECKOUT_STEP_ROUTE,
  CHECKOUT_STEPS,
  type CheckoutProgress,
  type CheckoutStep,
  canStartPayment,
  checkoutProblemKey,
  checkoutProblems,
  lineChanges,
  paymentLinkForBrowser,
  resolveCheckoutStep,
  validateCheckoutForm,
} from '@vitrine/domain';
import type { CheckoutDetails, CheckoutItem, CheckoutView, Transaction } from '@vitrine/protocol';
import { type FormEvent, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Link,
  Navigate,
  useLoaderData,
  useLocation,
  useMatches,
  useNavigate,
  useSearchParams,
} from 'react-router';
import { LanguagePicker } from '../../components/language-picker.tsx';
import { ApiError } from '../../lib/api.ts';
import { logFailure } from '../../lib/debug.ts';
import { rememberPick } from '../../lib/i18n.ts';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
import { currentSession } from '../../lib/session.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { themeStyle } from '../shop/shop-page.tsx';
import { termsPath } from '../terms/terms-path.ts';
import { type AddOutcome, failedOutcome } from './add-feedback.tsx';
import {
  changeCheckoutProductQuantity,
  loadCheckout,
  placeOrder,
  updateCheckoutDetails,
  userPaymentStarted,
} from './checkout-api.ts';
import type { CheckoutData } from './checkout-data.ts';
import { CheckoutForm } from './checkout-form.tsx';
import { useCheckoutTranslation } from './checkout-i18n.ts';
import { checkoutPagePath, pickupLocationPath, widgetPathForCheckout } from './checkout-route.ts';
import { checkoutBehindLive } from './live-checkout.ts';
import {
  itemKey,
  OrderLines,
  OrderNotices,
  OrderTotals,
  useCheckoutMoney,
  useCountryName,
  useShippingLabel,
} from './order-view.tsx';
import { followShownLanguage } from './reservation-sync.ts';
import './checkout.css';

/** The child routes of the one-page checkout (spec §2: choose, confirm, success) and their steps. */
const STEP_OF_ROUTE: Record<string, CheckoutStep> = {
  choose: 'cart',
  confirm: 'confirm',
  success: 'payment',
};
/** How often an awaiting payment is checked, and for how long (the provider confirms within seconds). */
const PAYMENT_POLL_MS = 1500;
const PAYMENT_POLL_LIMIT = 80;
/** Text fields are saved this long after the last keystroke; choices are saved at once. */
const SAVE_DELAY_MS = 600;

export function stepPath(campaignUid: string, checkoutUid: string, step: CheckoutStep): string {
  const tail = CHECKOUT_STEP_ROUTE[step];
  const base = checkoutPagePath(campaignUid, checkoutUid);
  return tail ? `${base}/${tail}` : base;
}

function progressOf(view: CheckoutView): CheckoutProgress {
  return {
    lineCount: view.items.length,
    formComplete: view.problems.length === 0,
    paymentStarted: view.transactions.length > 0,
    paid: view.payed,
    locked: view.locked,
    deadlinePassed: view.deadlinePassed,
  };
}

type CheckoutRef = Pick<CheckoutData, 'pageUid' | 'campaignUid' | 'checkoutUid'>;

/** The checkout as last answered by the server, reloadable. */
function useCheckoutView(data: CheckoutData) {
  const [view, setView] = useState(data.view);
  useEffect(() => setView(data.view), [data.view]);
  const { pageUid, campaignUid, checkoutUid } = data;
  const reload = useCallback(async () => {
    try {
      setView(await loadCheckout({ pageUid, campaignUid, checkoutUid }));
    } catch (error) {
      logFailure('reloading the checkout failed', error);
    }
  }, [pageUid, campaignUid, checkoutUid]);
  return { view, setView, reload };
}

/**
 * Follows the viewer's reservation live: a change made in another tab (the player's cart) reloads
 * the checkout here, and so does a first snapshot that finds the order moved on since the page
 * loaded it (checkoutBehindLive: sent to packing while the page was subscribing).
 */
function LiveReservationFollower({
  data,
  userUid,
  view,
  onChange,
}: {
  data: CheckoutRef;
  userUid: string;
  view: CheckoutView;
  onChange(): void;
}) {
  const live = useLiveQuery('checkout', { pageUid: data.pageUid, campaignUid: data.campaignUid, userUid });
  const doc = live.status === 'SUBSCRIBED' ? live.docs[0] : undefined;
  const fingerprint = doc ? JSON.stringify([doc.reservations, doc.totalPrice, doc.status]) : null;
  const behind = doc ? checkoutBehindLive(view, doc) : false;
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (fingerprint === null) return;
    const first = seen.current === null;
    if (first ? behind : seen.current !== fingerprint) onChange();
    seen.current = fingerprint;
  }, [fingerprint, behind, onChange]);
  return null;
}

/** The one-page checkout at `/{campaignUid}/{checkoutUid}` with its stepper Cart → Confirmation → Payment. */
export function CheckoutPage() {
  const data = useLoaderData() as CheckoutData;
  const { t } = useCheckoutTranslation();
  const location = useLocation();
  const { view, setView, reload } = useCheckoutView(data);
  const matches = useMatches();
  const routeStep = (matches.at(-1)?.handle as { step?: string } | undefined)?.step ?? 'choose';
  const requested = STEP_OF_ROUTE[routeStep] ?? 'cart';
  const progress = progressOf(view);
  const step = resolveCheckoutStep(requested, progress);
  const userUid = currentSession()?.user.uid ?? null;
  const { locale } = useLocale();
  // The shopper's language (and its currency) becomes their reservation: an open cart is repriced
  // in the currency now shown, and the checkout and its payment page speak the same language.
  useEffect(() => {
    if (!userUid) return;
    const ref = { pageUid: data.pageUid, campaignUid: data.campaignUid, userUid };
    void followShownLanguage(ref, locale).then(async (saved) => {
      if (saved) await reload();
    });
  }, [userUid, data.pageUid, data.campaignUid, locale, reload]);

  if (step !== requested) {
    return (
      <Navigate replace to={`${stepPath(data.campaignUid, data.checkoutUid, step)}${location.search}`} />
    );
  }

  return (
    <CheckoutShell data={data} title={t('checkout.title')}>
      {userUid && <LiveReservationFollower data={data} userUid={userUid} view={view} onChange={reload} />}
      <Stepper data={data} step={step} progress={progress} />
      <OrderNotices view={view} />
      {step === 'cart' && <CartStep data={data} view={view} setView={setView} reload={reload} />}
      {step === 'confirm' && <ConfirmStep data={data} view={view} setView={setView} reload={reload} />}
      {step === 'payment' && <PaymentStep data={data} view={view} setView={setView} reload={reload} />}
    </CheckoutShell>
  );
}

/** The checkout's frame: the store's header in its colours, and a way back to the show. */
export function CheckoutShell({
  data,
  title,
  children,
  basic = false,
}: {
  data: Pick<
    CheckoutData,
    'pageUid' | 'campaignUid' | 'checkoutUid' | 'storeInfo' | 'playerSettings' | 'showName'
  >;
  title: string;
  children: ReactNode;
  /** The basic layout of the options pages: no store header. */
  basic?: boolean;
}) {
  const { t, ready } = useCheckoutTranslation();
  const showPath = widgetPathForCheckout(data, data.checkoutUid);
  // The route loads the namespace first; this covers a language switch still on its way.
  if (!ready) return <div className="route-progress" role="progressbar" aria-busy="true" />;
  return (
    <div className={`checkout${basic ? ' checkout--basic' : ''}`} style={themeStyle(data.playerSettings)}>
      {!basic && (
        <header className="checkout-header">
          <div className="checkout-header__inner">
            {data.storeInfo.logo && (
              <img className="checkout-header__logo" src={data.storeInfo.logo} alt="" />
            )}
            <div className="checkout-header__text">
              <p className="checkout-header__store">{data.storeInfo.name}</p>
              <p className="checkout-header__show">{data.showName}</p>
            </div>
            <LanguagePicker />
          </div>
        </header>
      )}
      <main className="checkout-main">
        {showPath && !basic && (
          <Link className="checkout-back" to={showPath}>
            ← {t('checkout.backToShow')}
          </Link>
        )}
        <h1 className="checkout-title">{title}</h1>
        {children}
      </main>
    </div>
  );
}

/** Scrolls to the form's first invalid section and focuses its first field (or the section). */
function focusFirstInvalid(form: HTMLFormElement | null) {
  const section = form?.querySelector<HTMLElement>('[data-invalid]');
  if (!section) return;
  const fields = [
    ...section.querySelectorAll<HTMLInputElement>('input:not([type="hidden"]), select, textarea'),
  ];
  // The field marked invalid, else the first one left empty, else the section's first.
  const field =
    fields.find((candidate) => candidate.getAttribute('aria-invalid') === 'true') ??
    fields.find(
      (candidate) => candidate.type !== 'radio' && candidate.type !== 'checkbox' && !candidate.value,
    ) ??
    fields[0] ??
    section;
  section.scrollIntoView({ block: 'center', behavior: 'smooth' });
  field.focus({ preventScroll: true });
}

/** Cart → Confirmation → Payment; steps the shopper may open are links. */
function Stepper({
  data,
  step,
  progress,
}: {
  data: CheckoutData;
  step: CheckoutStep;
  progress: CheckoutProgress;
}) {
  const { t } = useCheckoutTranslation();
  const available = availableCheckoutSteps(progress);
  // A step change replaces the button that caused it: the focus goes to the new current step,
  // not to the page's body (not on the first render, where the browser's own start is right).
  const currentRef = useRef<HTMLSpanElement>(null);
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    currentRef.current?.focus();
  }, [step]);
  return (
    <ol className="stepper" aria-label={t('checkout.steps.label')}>
      {CHECKOUT_STEPS.map((candidate, index) => {
        const current = candidate === step;
        const done = CHECKOUT_STEPS.indexOf(step) > index || (candidate === 'payment' && progress.paid);
        const label = (
          <>
            <span className="stepper__number" aria-hidden="true">
              {done && !current ? '✓' : index + 1}
            </span>
            <span className="stepper__label">{t(`checkout.steps.${candidate}`)}</span>
          </>
        );
        return (
          <li
            key={candidate}
            className="stepper__step"
            aria-current={current ? 'step' : undefined}
            data-done={done || undefined}
            data-step={candidate}
          >
            {available[candidate] && !current ? (
              <Link to={stepPath(data.campaignUid, data.checkoutUid, candidate)}>{label}</Link>
            ) : (
              <span ref={current ? currentRef : undefined} tabIndex={current ? -1 : undefined}>
                {label}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

interface StepProps {
  data: CheckoutData;
  view: CheckoutView;
  setView(view: CheckoutView): void;
  reload(): Promise<void>;
}

/**
 * The text for a refused details save: the server's refusal in the shopper's language (a payment
 * under way, locked, past the deadline), else the generic "could not be saved".
 */
export function detailsErrorKey(error: unknown): string {
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'payment_open':
        return 'checkout.refusal.cheaperDelivery';
      case 'order_locked':
        return 'checkout.order.locked';
      case 'deadline_overdue':
        return 'checkout.order.deadlineOverdue';
    }
  }
  return 'checkout.form.saveFailed';
}

/**
 * Saves the details as the shopper fills them in: choices at once, typing after a pause. Answers
 * arriving out of order are dropped, so the checkout shows the last save. A save the server
 * refuses (as opposed to one that never arrived) calls `onRefused`: the form goes back to what is saved.
 */
function useDetailsSaver(ref: CheckoutRef, onSaved: (view: CheckoutView) => void, onRefused: () => void) {
  const sequence = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const waiting = useRef<CheckoutDetails | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const { pageUid, campaignUid, checkoutUid } = ref;

  const save = useCallback(
    async (details: CheckoutDetails): Promise<CheckoutView | null> => {
      clearTimeout(timer.current);
      waiting.current = null;
      const mine = ++sequence.current;
      try {
        const view = await updateCheckoutDetails({ pageUid, campaignUid, checkoutUid, details });
        if (mine === sequence.current) {
          onSaved(view);
          setFailed(null);
        }
        return view;
      } catch (error) {
        logFailure('saving the checkout details failed', error);
        if (mine === sequence.current) {
          setFailed(detailsErrorKey(error));
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) onRefused();
        }
        return null;
      }
    },
    [pageUid, campaignUid, checkoutUid, onSaved, onRefused],
  );
  const schedule = useCallback(
    (details: CheckoutDetails, immediately: boolean) => {
      clearTimeout(timer.current);
      waiting.current = details;
      timer.current = setTimeout(() => void save(details), immediately ? 0 : SAVE_DELAY_MS);
    },
    [save],
  );
  // Leaving the step with typing not yet saved saves it.
  useEffect(
    () => () => {
      if (waiting.current) void save(waiting.current);
    },
    [save],
  );
  return { save, schedule, failed };
}

/** Whether a change is a choice (saved at once) rather than typing (saved after a pause). */
function isChoiceChange(before: CheckoutDetails, after: CheckoutDetails): boolean {
  return (
    before.deliveryCountry !== after.deliveryCountry ||
    before.shippingMethod !== after.shippingMethod ||
    before.paymentMethod !== after.paymentMethod ||
    before.pickupLocationUid !== after.pickupLocationUid ||
    before.parcelShopId !== after.parcelShopId ||
    before.termsAccepted !== after.termsAccepted
  );
}

/** Step 1, Cart: the lines (quantities can change) and the delivery and payment form. */
function CartStep({ data, view, setView, reload }: StepProps) {
  const { t } = useCheckoutTranslation();
  const navigate = useNavigate();
  const [values, setValues] = useState<CheckoutDetails>(view.details);
  const [showErrors, setShowErrors] = useState(false);
  const [continuing, setContinuing] = useState(false);
  const [lineFeedback, setLineFeedback] = useState<Record<string, AddOutcome>>({});
  // A refused save (cheaper delivery while a payment is under way) leaves the saved details: show them.
  const savedDetails = useRef(view.details);
  savedDetails.current = view.details;
  const restoreSaved = useCallback(() => setValues(savedDetails.current), []);
  const saver = useDetailsSaver(data, setView, restoreSaved);
  const errors = useMemo(() => validateCheckoutForm(values), [values]);
  const problems = useMemo(() => checkoutProblems(values), [values]);
  const formRef = useRef<HTMLFormElement>(null);
  const editable = !view.locked;
  const order = {
    status: view.status,
    paidAmount: view.paidAmount,
    paymentOpen: view.transactions.some((transaction) => transaction.status === 'awaiting_confirmation'),
    total: view.totalPrice,
  };
  // Per line: a line added after a payment stays removable, the paid ones do not (domain lineChanges).
  const lineChange = (item: CheckoutItem) => lineChanges(order, item.price);
  const changes = view.items.map(lineChange).find((change) => !change.canReduce) ?? lineChanges(order, 0);

  const change = (next: CheckoutDetails) => {
    const choice = isChoiceChange(values, next);
    setValues(next);
    if (editable) saver.schedule(next, choice);
  };

  const changeQuantity = async (item: CheckoutItem, quantity: number) => {
    let outcome: AddOutcome;
    try {
      const answer = await changeCheckoutProductQuantity({
        pageUid: data.pageUid,
        campaignUid: data.campaignUid,
        checkoutUid: data.checkoutUid,
        productUid: item.productUid,
        variantUid: item.variantUid,
        quantity,
      });
      outcome = answer.status;
    } catch (error) {
      logFailure('changing the quantity failed', error);
      outcome = failedOutcome(error);
    }
    setLineFeedback((current) => ({ ...current, [itemKey(item)]: outcome }));
    await reload();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (errors.length > 0) {
      setShowErrors(true);
      // The first message is what the shopper should read next, and its field the one to fix.
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setContinuing(true);
    const saved = await saver.save(values);
    setContinuing(false);
    if (saved && saved.problems.length === 0) {
      void navigate(stepPath(data.campaignUid, data.checkoutUid, 'confirm'));
    } else {
      setShowErrors(true);
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
    }
  };

  const chooseStore = async () => {
    await saver.save({ ...values, shippingMethod: 'store_pickup' });
    void navigate(pickupLocationPath(data));
  };

  if (view.items.length === 0) {
    return (
      <section className="checkout-card checkout-empty">
        <p>{t('checkout.cart.empty')}</p>
      </section>
    );
  }

  return (
    <form className="checkout-grid" ref={formRef} noValidate onSubmit={(event) => void onSubmit(event)}>
      <div className="checkout-grid__main">
        <section className="checkout-card">
          <h2>{t('checkout.cart.title')}</h2>
          <OrderLines
            view={view}
            editable={editable && !view.deadlinePassed}
            reducible={(item) => lineChange(item).canReduce}
            feedback={lineFeedback}
            onQuantity={(item, quantity) => void changeQuantity(item, quantity)}
          />
          {(changes.reduceBlockedBy === 'paid' || changes.reduceBlockedBy === 'paymentOpen') && (
            <p className="order-lines__hint" data-hint={changes.reduceBlockedBy}>
              {t(`checkout.orderState.reduceBlocked.${changes.reduceBlockedBy}`)}
            </p>
          )}
        </section>
        <section className="checkout-card">
          <CheckoutForm
            values={values}
            onChange={change}
            options={data.options}
            view={view}
            errors={errors}
            showErrors={showErrors}
            onChooseStore={() => void chooseStore()}
            termsHref={termsPath(data.pageUid)}
          />
        </section>
      </div>
      <SummaryAside
        view={view}
        notes={
          problems.length > 0 && (
            <div className="checkout-problems">
              <p>{t('checkout.summary.beforeOrdering')}</p>
              <ul data-testid="checkout-problems">
                {problems.map((problem) => (
                  <li key={problem} data-problem={problem}>
                    {t(checkoutProblemKey(problem))}
                  </li>
                ))}
              </ul>
            </div>
          )
        }
        errorKey={saver.failed}
      >
        <button
          type="submit"
          className="button checkout-summary__action"
          disabled={continuing || view.locked || view.deadlinePassed}
          aria-busy={continuing || undefined}
        >
          {t('checkout.cart.continue')}
        </button>
      </SummaryAside>
    </form>
  );
}

/** What an ApiError of the order and payment calls means to the shopper (spec §8 texts where given). */
function payErrorKey(error: unknown): string {
  if (error instanceof ApiError) {
    switch (error.code) {
      case 'deadline_overdue':
        return 'checkout.order.deadlineOverdue';
      case 'order_locked':
        return 'checkout.order.locked';
      case 'checkout_incomplete':
        return 'checkout.confirm.incomplete';
      case 'empty_cart':
        return 'checkout.cart.empty';
      case 'nothing_to_pay':
        return 'checkout.payment.nothingToPay';
      case 'payment_open':
        return 'checkout.refusal.paymentOpen';
    }
  }
  return 'checkout.payment.startFailed';
}

/**
 * Places the order when it is still a cart, then starts a payment of what remains and sends the
 * shopper to the provider's page (its link adapted for iOS social in-app browsers, spec §7).
 */
function usePayment({ data, view, setView, reload }: StepProps) {
  const { locale } = useLocale();
  const [busy, setBusy] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const pay = async () => {
    setBusy(true);
    setErrorKey(null);
    const ref = { pageUid: data.pageUid, campaignUid: data.campaignUid, checkoutUid: data.checkoutUid };
    try {
      if (view.status === 'open') setView(await placeOrder(ref));
      const started = await userPaymentStarted({
        ...ref,
        context: 'checkout',
        returnPath: stepPath(data.campaignUid, data.checkoutUid, 'payment'),
      });
      // The return from the provider is a fresh page load: it must open in the language the
      // shopper is paying in (which may have come from the host's ?lang), not an older stored one.
      rememberPick(locale);
      window.location.assign(paymentLinkForBrowser(started.paymentUrl, navigator.userAgent));
    } catch (error) {
      logFailure('starting the payment failed', error);
      setErrorKey(payErrorKey(error));
      setBusy(false);
      await reload();
    }
  };
  return { pay, busy, errorKey };
}

/**
 * The order's summary beside a step: its totals, the step's `notes`, the step's error (a text key)
 * and then its action (`children`).
 */
function SummaryAside({
  view,
  notes,
  errorKey,
  children,
}: {
  view: CheckoutView;
  notes?: ReactNode;
  errorKey: string | null;
  children: ReactNode;
}) {
  const { t } = useCheckoutTranslation();
  return (
    <aside className="checkout-grid__aside">
      <section className="checkout-card checkout-summary">
        <h2>{t('checkout.summary.title')}</h2>
        <OrderTotals view={view} showPayments />
        {notes}
        {errorKey && (
          <p className="form-error" role="alert" data-error={errorKey}>
            {t(errorKey)}
          </p>
        )}
        {children}
      </section>
    </aside>
  );
}

/** Where the order goes and how it is paid, as the shopper filled it in. */
function DeliverySummary({ data, view }: { data: CheckoutData; view: CheckoutView }) {
  const { t } = useCheckoutTranslation();
  const countryName = useCountryName();
  const shippingLabel = useShippingLabel();
  const { details } = view;
  const { address } = details;
  const store =
    details.shippingMethod === 'store_pickup'
      ? data.options.pickupLocations.find((location) => location.uid === details.pickupLocationUid)
      : undefined;
  const parcelShop = view.parcelShop ?? null;
  return (
    <dl className="delivery-summary">
      <div>
        <dt>{t('checkout.confirm.deliverTo')}</dt>
        <dd>
          {address.name}
          {details.shippingMethod !== 'store_pickup' && (
            <>
              <br />
              {address.address}
              <br />
              {address.postcodeAndCity}
              {details.deliveryCountry && (
                <>
                  <br />
                  {countryName(details.deliveryCountry)}
                </>
              )}
            </>
          )}
          <br />
          {address.emailAddress}
          <br />
          {address.phone}
        </dd>
      </div>
      {details.shippingMethod && (
        <div>
          <dt>{t('checkout.form.shippingTitle')}</dt>
          <dd>
            {shippingLabel(details.shippingMethod)}
            {store && (
              <>
                <br />
                {store.name}, {store.address}, {store.postCode} {store.city}
              </>
            )}
            {details.shippingMethod === 'parcel_shop' && parcelShop && (
              <span className="delivery-summary__place" data-testid="parcel-shop">
                <br />
                {parcelShop.name}, {parcelShop.address}, {parcelShop.postCode} {parcelShop.city}
              </span>
            )}
          </dd>
        </div>
      )}
      {details.paymentMethod && (
        <div>
          <dt>{t('checkout.form.paymentTitle')}</dt>
          <dd>{t(`checkout.paymentMethod.${details.paymentMethod}`)}</dd>
        </div>
      )}
      {/* The shopper's comment to the shop (spec §3 commentField, the note as typed; see completeCheckoutAddress). */}
      {address.commentField && (
        <div>
          <dt>{t('checkout.form.note')}</dt>
          <dd className="delivery-summary__note">{address.commentField}</dd>
        </div>
      )}
    </dl>
  );
}

/** Step 2, Confirmation: the order as it will be placed, and the way to pay for it. */
function ConfirmStep(props: StepProps) {
  const { data, view } = props;
  const { t } = useCheckoutTranslation();
  const money = useCheckoutMoney(view);
  const payment = usePayment(props);
  const canPay = canStartPayment(progressOf(view), view.remainingAmount);
  return (
    <div className="checkout-grid">
      <div className="checkout-grid__main">
        <section className="checkout-card">
          <div className="checkout-card__heading">
            <h2>{t('checkout.confirm.title')}</h2>
            <Link to={stepPath(data.campaignUid, data.checkoutUid, 'cart')}>
              {t('checkout.confirm.edit')}
            </Link>
          </div>
          <OrderLines view={view} />
        </section>
        <section className="checkout-card">
          <DeliverySummary data={data} view={view} />
        </section>
      </div>
      <SummaryAside view={view} errorKey={payment.errorKey}>
        <button
          type="button"
          className="button checkout-summary__action"
          disabled={!canPay || payment.busy}
          aria-busy={payment.busy || undefined}
          onClick={() => void payment.pay()}
        >
          {t('checkout.confirm.pay', { amount: money(view.remainingAmount) })}
        </button>
        <p className="checkout-summary__hint">{t('checkout.confirm.hint')}</p>
      </SummaryAside>
    </div>
  );
}

const latestTransaction = (transactions: readonly Transaction[]) =>
  transactions.reduce<Transaction | null>(
    (latest, candidate) => (latest === null || candidate.created >= latest.created ? candidate : latest),
    null,
  );

/**
 * Step 3, Payment: where the payment stands (awaiting confirmation → received; declined or
 * interrupted ones can be retried; a remaining amount can be paid), then the order page.
 */
function PaymentStep(props: StepProps) {
  const { view, reload } = props;
  const { t } = useCheckoutTranslation();
  const money = useCheckoutMoney(view);
  const [params] = useSearchParams();
  const payment = usePayment(props);
  const returned = params.get('transaction');
  const transaction =
    view.transactions.find((candidate) => candidate.uid === returned) ?? latestTransaction(view.transactions);
  const awaiting = !view.payed && transaction?.status === 'awaiting_confirmation';
  const [gaveUp, setGaveUp] = useState(false);

  useEffect(() => {
    if (!awaiting) return;
    let polls = 0;
    const timer = setInterval(() => {
      polls += 1;
      if (polls > PAYMENT_POLL_LIMIT) {
        clearInterval(timer);
        setGaveUp(true);
        return;
      }
      void reload();
    }, PAYMENT_POLL_MS);
    return () => clearInterval(timer);
  }, [awaiting, reload]);

  const canPay = !view.payed && canStartPayment(progressOf(view), view.remainingAmount);
  let status: ReactNode;
  if (view.payed) {
    status = <PaymentReceived view={view} />;
  } else if (awaiting) {
    status = (
      <div className="payment-status payment-status--awaiting" role="status" data-payment="awaiting">
        <span className="spinner" aria-hidden="true" />
        <p>{t(gaveUp ? 'checkout.payment.stillAwaiting' : 'checkout.payment.awaiting')}</p>
      </div>
    );
  } else {
    const failed = transaction?.status === 'declined' || transaction?.status === 'abandoned';
    status = (
      <div
        className={`payment-status${failed ? ' payment-status--failed' : ''}`}
        role={failed ? 'alert' : 'status'}
        data-payment={transaction?.status ?? 'none'}
      >
        {transaction?.status === 'declined' && <p>{t('checkout.payment.declined')}</p>}
        {transaction?.status === 'abandoned' && <p>{t('checkout.payment.interrupted')}</p>}
        {view.paidAmount > 0 && view.remainingAmount > 0 && (
          <p>{t('checkout.payment.remaining', { amount: money(view.remainingAmount) })}</p>
        )}
        {payment.errorKey && (
          <p className="form-error" data-error={payment.errorKey}>
            {t(payment.errorKey)}
          </p>
        )}
        {canPay && (
          <button
            type="button"
            className="button"
            disabled={payment.busy}
            aria-busy={payment.busy || undefined}
            onClick={() => void payment.pay()}
          >
            {failed
              ? t('checkout.payment.retry', { amount: money(view.remainingAmount) })
              : t('checkout.confirm.pay', { amount: money(view.remainingAmount) })}
          </button>
        )}
      </div>
    );
  }

  return (
    <div className="checkout-payment">
      {status}
      <OrderPage {...props} />
    </div>
  );
}

/** The payment-received page (spec §2). */
function PaymentReceived({ view }: { view: CheckoutView }) {
  const { t } = useCheckoutTranslation();
  const money = useCheckoutMoney(view);
  return (
    <section className="payment-received" data-payment="received" role="status">
      <span className="payment-received__icon" aria-hidden="true">
        ✓
      </span>
      <h2>{t('checkout.payment.receivedTitle')}</h2>
      <p>{t('checkout.payment.receivedText', { amount: money(view.paidAmount) })}</p>
    </section>
  );
}

/** The order page (spec §2): order number, items with price and total, freight and total. */
function OrderPage({ data, view }: StepProps) {
  const { t } = useCheckoutTranslation();
  const format = useLocale();
  return (
    <section className="checkout-card order-page" data-testid="order-page">
      <div className="checkout-card__heading">
        <h2>
          {view.orderNumber !== null
            ? t('checkout.order.number', { number: view.orderNumber })
            : t('checkout.order.title')}
        </h2>
        {view.orderedAt !== null && (
          <span className="order-page__date">
            {t('checkout.order.placed', { date: format.dateTime(view.orderedAt) })}
          </span>
        )}
      </div>
      <OrderLines view={view} />
      <OrderTotals view={view} showPayments />
      <DeliverySummary data={data} view={view} />
    </section>
  );
}
