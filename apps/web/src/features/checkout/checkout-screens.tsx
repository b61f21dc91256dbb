import { validateCheckoutForm } from '@vitrine/domain';
import type { CheckoutDetails } from '@vitrine/protocol';
import { type FormEvent, useId, useState } from 'react';
import { Link, useLoaderData, useNavigate, useParams } from 'react-router';
import { logFailure } from '../../lib/debug.ts';
import { termsPath } from '../terms/terms-path.ts';
import { updateCheckoutDetails } from './checkout-api.ts';
import type { CheckoutData, CheckoutErrorData, CreateCheckoutData } from './checkout-data.ts';
import { CheckoutForm } from './checkout-form.tsx';
import { useCheckoutTranslation } from './checkout-i18n.ts';
import { CheckoutShell } from './checkout-page.tsx';
import { checkoutPagePath, pickupLocationPath } from './checkout-route.ts';
import './checkout.css';

/** `{campaignUid}/create` when the basket could not be prepared (spec §8); success redirects in the loader. */
export function CreateCheckoutPage() {
  const data = useLoaderData() as CreateCheckoutData;
  const { t, ready } = useCheckoutTranslation();
  const { campaignUid } = useParams();
  if (!ready) return null;
  return (
    <main className="message-page" data-page="create-checkout">
      <h1>{data.showName}</h1>
      <p role="alert">{t('checkout.create.failed')}</p>
      <div className="message-page__actions">
        <Link className="button" to={`/${encodeURIComponent(campaignUid ?? '')}/create`} reloadDocument>
          {t('checkout.tryAgain')}
        </Link>
        <Link to="/">{t('notFound.home')}</Link>
      </div>
    </main>
  );
}

/** The checkout error route `{pageUid}/{campaignUid}/{checkoutUid}/error`. */
export function CheckoutErrorPage() {
  const data = useLoaderData() as CheckoutErrorData;
  const { t, ready } = useCheckoutTranslation();
  const { campaignUid, checkoutUid } = useParams();
  if (!ready) return null;
  return (
    <main className="message-page" data-page="checkout-error">
      {data.storeInfo && <p className="checkout-error__store">{data.storeInfo.name}</p>}
      <h1>{t('checkout.error.title')}</h1>
      <p>{t('app.couldNotLoad')}</p>
      <div className="message-page__actions">
        {campaignUid && checkoutUid && (
          <Link className="button" to={checkoutPagePath(campaignUid, checkoutUid)}>
            {t('checkout.tryAgain')}
          </Link>
        )}
        <Link to="/">{t('notFound.home')}</Link>
      </div>
    </main>
  );
}

/**
 * The checkout options page `/options/{pageUid}/{campaignUid}/{checkoutUid}` in a basic layout:
 * delivery country, shipping and payment choices of the checkout, saved back to it. The two
 * special customer pages use it with their fixed page id.
 */
export function CheckoutOptionsPage({ fixedPageId }: { fixedPageId?: string }) {
  const data = useLoaderData() as CheckoutData;
  const { t } = useCheckoutTranslation();
  const navigate = useNavigate();
  const [values, setValues] = useState<CheckoutDetails>(data.view.details);
  const [view, setView] = useState(data.view);
  const [showErrors, setShowErrors] = useState(false);
  const [failed, setFailed] = useState(false);
  const errors = validateCheckoutForm(values).filter(
    (error) => error.section === 'shipping' || error.section === 'pickup' || error.section === 'payment',
  );
  const ref = { pageUid: data.pageUid, campaignUid: data.campaignUid, checkoutUid: data.checkoutUid };

  const save = async (details: CheckoutDetails) => {
    try {
      setView(await updateCheckoutDetails({ ...ref, details }));
      setFailed(false);
      return true;
    } catch (error) {
      logFailure('saving the checkout options failed', error);
      setFailed(true);
      return false;
    }
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (errors.length > 0) {
      setShowErrors(true);
      return;
    }
    if (await save(values)) void navigate(checkoutPagePath(data.campaignUid, data.checkoutUid));
  };

  return (
    <div data-fixed-page-id={fixedPageId} data-page="checkout-options">
      <CheckoutShell data={data} title={t('checkout.options.title')} basic>
        <form
          className="checkout-card checkout-options"
          noValidate
          onSubmit={(event) => void onSubmit(event)}
        >
          <p className="checkout-options__intro">
            {t('checkout.options.intro', { store: data.storeInfo.name })}
          </p>
          <CheckoutForm
            values={values}
            onChange={setValues}
            options={data.options}
            view={view}
            errors={errors}
            showErrors={showErrors}
            sections={['shipping', 'payment']}
            onChooseStore={() =>
              void save({ ...values, shippingMethod: 'store_pickup' }).then(
                (saved) => saved && navigate(pickupLocationPath(data)),
              )
            }
            termsHref={termsPath(data.pageUid)}
          />
          {failed && (
            <p className="form-error" role="alert">
              {t('checkout.form.saveFailed')}
            </p>
          )}
          <div className="checkout-options__actions">
            <button type="submit" className="button" disabled={view.locked}>
              {t('checkout.options.save')}
            </button>
            <Link to={checkoutPagePath(data.campaignUid, data.checkoutUid)}>
              {t('checkout.options.back')}
            </Link>
          </div>
        </form>
      </CheckoutShell>
    </div>
  );
}

/** `/select-checkout-location/…`: the stores the order can be picked up in; choosing one returns to the checkout. */
export function CheckoutLocationPage() {
  const data = useLoaderData() as CheckoutData;
  const { t } = useCheckoutTranslation();
  const navigate = useNavigate();
  const id = useId();
  const locations = data.options.pickupLocations;
  const [chosen, setChosen] = useState<string | null>(data.view.details.pickupLocationUid);
  const [showError, setShowError] = useState(false);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) {
      setShowError(true);
      return;
    }
    setSaving(true);
    try {
      await updateCheckoutDetails({
        pageUid: data.pageUid,
        campaignUid: data.campaignUid,
        checkoutUid: data.checkoutUid,
        details: {
          ...data.view.details,
          shippingMethod: 'store_pickup',
          pickupLocationUid: chosen,
          parcelShopId: null,
        },
      });
      void navigate(checkoutPagePath(data.campaignUid, data.checkoutUid));
    } catch (error) {
      logFailure('saving the pickup store failed', error);
      setFailed(true);
      setSaving(false);
    }
  };

  return (
    <CheckoutShell data={data} title={t('checkout.pickup.title')}>
      <form className="checkout-card checkout-location" noValidate onSubmit={(event) => void onSubmit(event)}>
        {locations.length === 0 ? (
          <p>{t('checkout.pickup.noStores')}</p>
        ) : (
          <div
            className="choice-list choice-list--cards"
            role="radiogroup"
            aria-label={t('checkout.pickup.title')}
          >
            {locations.map((location) => (
              <label key={location.uid} className="choice">
                <input
                  type="radio"
                  name={`${id}-store`}
                  value={location.uid}
                  checked={chosen === location.uid}
                  onChange={() => setChosen(location.uid)}
                />
                <span className="choice__label">
                  <strong>{location.name}</strong>
                  <br />
                  {location.address}, {location.postCode} {location.city}
                  {/* The store's own words ("Mon–Fri 10–18"), as it typed them in the studio. */}
                  {location.openingHours && (
                    <>
                      <br />
                      <span className="choice__hint">{location.openingHours}</span>
                    </>
                  )}
                </span>
              </label>
            ))}
          </div>
        )}
        {showError && !chosen && (
          <p className="form-error" role="alert">
            {t('checkout.form.choosePickupStore')}
          </p>
        )}
        {failed && (
          <p className="form-error" role="alert">
            {t('checkout.form.saveFailed')}
          </p>
        )}
        <div className="checkout-options__actions">
          <button
            type="submit"
            className="button"
            disabled={saving || locations.length === 0 || data.view.locked}
          >
            {t('checkout.pickup.confirm')}
          </button>
          <Link to={checkoutPagePath(data.campaignUid, data.checkoutUid)}>{t('checkout.options.back')}</Link>
        </div>
      </form>
    </CheckoutShell>
  );
}
