import {
  type CheckoutAddressField,
  type CheckoutFormError,
  type CheckoutSection,
  checkoutFieldLabelKey,
  isAddressFieldFilled,
  isAddressFieldValid,
  shipsToAddress,
} from '@vitrine/domain';
import type {
  CheckoutDetails,
  CheckoutOptions,
  CheckoutView,
  DeliveryCountry,
  ParcelShop,
  PaymentMethodId,
  ShippingMethodKind,
} from '@vitrine/protocol';
import { type ReactNode, useId, useState } from 'react';
import { logFailure } from '../../lib/debug.ts';
import { findParcelShops } from './checkout-api.ts';
import { useCheckoutTranslation } from './checkout-i18n.ts';
import { useCheckoutMoney, useCountryName, useShippingLabel } from './order-view.tsx';

/** Autocomplete tokens so browsers fill the address in (https://html.spec.whatwg.org/#autofill). */
const AUTOCOMPLETE: Record<CheckoutAddressField, string> = {
  name: 'name',
  address: 'street-address',
  postCode: 'postal-code',
  city: 'address-level2',
  emailAddress: 'email',
  phone: 'tel',
};
const INPUT_TYPE: Partial<Record<CheckoutAddressField, string>> = { emailAddress: 'email', phone: 'tel' };
/** The order the fields are laid out in (the messages list them in the spec's CHECKOUT_ADDRESS_FIELDS order). */
const FIELD_LAYOUT: CheckoutAddressField[] = ['name', 'address', 'postCode', 'city', 'emailAddress', 'phone'];

export interface CheckoutFormProps {
  values: CheckoutDetails;
  onChange(values: CheckoutDetails): void;
  options: CheckoutOptions;
  view: CheckoutView;
  /** The §5 form messages, shown once the shopper tried to continue. */
  errors: CheckoutFormError[];
  showErrors: boolean;
  /** Which sections to show (the options page shows delivery and payment choices only). */
  sections?: readonly ('address' | 'shipping' | 'payment' | 'terms')[];
  /** Saves the form and opens the pickup-store page. */
  onChooseStore(): void;
  termsHref: string;
}

/** The errors of one section, as the §5 texts. */
function useErrorText() {
  const { t } = useCheckoutTranslation();
  return (error: CheckoutFormError) =>
    error.fields
      ? t(error.key, { fields: error.fields.map((field) => t(checkoutFieldLabelKey(field))).join(', ') })
      : t(error.key);
}

function SectionErrors({ errors, section }: { errors: CheckoutFormError[]; section: CheckoutSection }) {
  const text = useErrorText();
  // A field's own message is shown under that field (FieldError).
  const mine = errors.filter((error) => error.section === section && error.field === undefined);
  if (mine.length === 0) return null;
  return (
    <>
      {mine.map((error) => (
        <p key={error.key} className="form-error" role="alert" data-error={error.key}>
          {text(error)}
        </p>
      ))}
    </>
  );
}

function Section({
  title,
  section,
  invalid,
  children,
}: {
  title: string;
  section: string;
  invalid: boolean;
  children: ReactNode;
}) {
  return (
    <fieldset className="checkout-section" data-section={section} data-invalid={invalid || undefined}>
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

/**
 * The checkout form of spec §2: delivery country and address, shipping method (home, pickup in a
 * store, parcel shop near the address), payment method and terms acceptance. Controlled: the
 * parent keeps the values and saves them.
 */
export function CheckoutForm({
  values,
  onChange,
  options,
  view,
  errors,
  showErrors,
  sections = ['address', 'shipping', 'payment', 'terms'],
  onChooseStore,
  termsHref,
}: CheckoutFormProps) {
  const { t } = useCheckoutTranslation();
  const countryName = useCountryName();
  const shippingLabel = useShippingLabel();
  const money = useCheckoutMoney(view);
  const id = useId();
  const shown = showErrors ? errors : [];
  const invalid = (section: CheckoutSection) => shown.some((error) => error.section === section);
  const missing = new Set(shown.flatMap((error) => error.fields ?? []));
  const fieldErrors = new Map(
    shown.flatMap((error) => (error.field ? [[error.field as CheckoutAddressField, error] as const] : [])),
  );
  const errorText = useErrorText();
  const shipped = shipsToAddress(values.shippingMethod);

  const setAddress = (field: CheckoutAddressField, value: string) =>
    onChange({ ...values, address: { ...values.address, [field]: value } });
  const setShipping = (kind: ShippingMethodKind) =>
    onChange({
      ...values,
      shippingMethod: kind,
      pickupLocationUid: kind === 'store_pickup' ? values.pickupLocationUid : null,
      parcelShopId: kind === 'parcel_shop' ? values.parcelShopId : null,
    });
  const store = options.pickupLocations.find((location) => location.uid === values.pickupLocationUid);

  return (
    <div className="checkout-form">
      {sections.includes('address') && (
        <Section
          title={t('checkout.form.addressTitle')}
          section="address"
          invalid={invalid('address') || invalid('country')}
        >
          <div className="form-field">
            <label htmlFor={`${id}-country`}>{t('checkout.form.country')}</label>
            <select
              id={`${id}-country`}
              value={values.deliveryCountry ?? ''}
              autoComplete="country"
              aria-invalid={invalid('country') || undefined}
              onChange={(event) =>
                onChange({
                  ...values,
                  deliveryCountry: (event.target.value || null) as DeliveryCountry | null,
                  parcelShopId: null,
                })
              }
            >
              <option value="">{t('checkout.form.countryPlaceholder')}</option>
              {options.countries.map((country) => (
                <option key={country} value={country}>
                  {countryName(country)}
                </option>
              ))}
            </select>
            <SectionErrors errors={shown} section="country" />
          </div>
          <div className="form-grid">
            {FIELD_LAYOUT.map((field) => {
              const optional = !shipped && (field === 'address' || field === 'postCode' || field === 'city');
              const fieldError = fieldErrors.get(field);
              return (
                <div key={field} className={`form-field form-field--${field}`}>
                  <label htmlFor={`${id}-${field}`}>
                    {t(`checkout.form.labels.${field}`)}
                    {optional && <span className="form-field__optional"> {t('checkout.form.optional')}</span>}
                  </label>
                  <input
                    id={`${id}-${field}`}
                    name={field}
                    type={INPUT_TYPE[field] ?? 'text'}
                    autoComplete={AUTOCOMPLETE[field]}
                    value={values.address[field]}
                    aria-invalid={
                      (missing.has(field) && !isAddressFieldFilled(field, values.address[field])) ||
                      (fieldError !== undefined && !isAddressFieldValid(field, values.address[field])) ||
                      undefined
                    }
                    aria-describedby={fieldError ? `${id}-${field}-error` : undefined}
                    onChange={(event) => setAddress(field, event.target.value)}
                  />
                  {fieldError && !isAddressFieldValid(field, values.address[field]) && (
                    <p
                      id={`${id}-${field}-error`}
                      className="form-error"
                      role="alert"
                      data-error={fieldError.key}
                    >
                      {errorText(fieldError)}
                    </p>
                  )}
                </div>
              );
            })}
          </div>
          <SectionErrors errors={shown} section="address" />
        </Section>
      )}

      {sections.includes('shipping') && (
        <Section
          title={t('checkout.form.shippingTitle')}
          section="shipping"
          invalid={invalid('shipping') || invalid('pickup')}
        >
          <div className="choice-list" role="radiogroup" aria-label={t('checkout.form.shippingTitle')}>
            {options.shippingMethods.map((method) => (
              <label key={method.kind} className="choice">
                <input
                  type="radio"
                  name={`${id}-shipping`}
                  value={method.kind}
                  checked={values.shippingMethod === method.kind}
                  onChange={() => setShipping(method.kind)}
                />
                <span className="choice__label">
                  {shippingLabel(method.kind)}
                  {method.freeOver !== null && (
                    <span className="choice__hint">
                      {t('checkout.shipping.freeFrom', { amount: money(method.freeOver) })}
                    </span>
                  )}
                </span>
                <span className="choice__price">
                  {/* The server drops the freight from the threshold on; the price says so before it is chosen. */}
                  {method.price === 0 || (method.freeOver !== null && view.subtotal >= method.freeOver)
                    ? t('checkout.shipping.free')
                    : money(method.price)}
                </span>
              </label>
            ))}
          </div>
          <SectionErrors errors={shown} section="shipping" />
          {values.shippingMethod === 'store_pickup' && (
            <div className="pickup-choice" data-testid="pickup-store">
              {store ? (
                <p className="pickup-choice__chosen">
                  <strong>{store.name}</strong>
                  <br />
                  {store.address}, {store.postCode} {store.city}
                </p>
              ) : (
                <p className="pickup-choice__none">{t('checkout.pickup.noneChosen')}</p>
              )}
              <button type="button" className="button button--secondary" onClick={onChooseStore}>
                {t(store ? 'checkout.pickup.change' : 'checkout.pickup.choose')}
              </button>
            </div>
          )}
          {values.shippingMethod === 'parcel_shop' && (
            <ParcelShopPicker values={values} view={view} onChange={onChange} />
          )}
          <SectionErrors errors={shown} section="pickup" />
        </Section>
      )}

      {sections.includes('payment') && (
        <Section title={t('checkout.form.paymentTitle')} section="payment" invalid={invalid('payment')}>
          <div className="choice-list" role="radiogroup" aria-label={t('checkout.form.paymentTitle')}>
            {options.paymentMethods.map((method) => (
              <label key={method} className="choice">
                <input
                  type="radio"
                  name={`${id}-payment`}
                  value={method}
                  checked={values.paymentMethod === method}
                  onChange={() => onChange({ ...values, paymentMethod: method as PaymentMethodId })}
                />
                <span className="choice__label">{t(`checkout.paymentMethod.${method}`)}</span>
              </label>
            ))}
          </div>
          <SectionErrors errors={shown} section="payment" />
        </Section>
      )}

      {sections.includes('address') && (
        <div className="form-field">
          <label htmlFor={`${id}-note`}>
            {t('checkout.form.note')}{' '}
            <span className="form-field__optional">{t('checkout.form.optional')}</span>
          </label>
          <textarea
            id={`${id}-note`}
            rows={2}
            maxLength={1000}
            value={values.address.note}
            onChange={(event) =>
              onChange({ ...values, address: { ...values.address, note: event.target.value } })
            }
          />
        </div>
      )}

      {sections.includes('terms') && (
        <div className="checkout-terms" data-section="terms" data-invalid={invalid('terms') || undefined}>
          <label className="choice choice--checkbox">
            <input
              type="checkbox"
              checked={values.termsAccepted}
              aria-invalid={invalid('terms') || undefined}
              onChange={(event) => onChange({ ...values, termsAccepted: event.target.checked })}
            />
            <span className="choice__label">{t('checkout.form.termsLabel')}</span>
          </label>
          <a className="checkout-terms__link" href={termsHref} target="_blank" rel="noopener">
            {t('checkout.form.readTerms')}
          </a>
          <SectionErrors errors={shown} section="terms" />
        </div>
      )}
    </div>
  );
}

type Lookup =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'done'; shops: ParcelShop[] }
  | { state: 'failed' };

/** Parcel shops (service points) near the address; none found gives spec §8's message. */
function ParcelShopPicker({
  values,
  view,
  onChange,
}: {
  values: CheckoutDetails;
  view: CheckoutView;
  onChange(values: CheckoutDetails): void;
}) {
  const { t } = useCheckoutTranslation();
  const id = useId();
  const [lookup, setLookup] = useState<Lookup>({ state: 'idle' });
  const { deliveryCountry: country } = values;
  const { address, postCode, city } = values.address;
  const canSearch = country !== null && postCode.trim() !== '';

  const search = async () => {
    if (!country) return;
    setLookup({ state: 'loading' });
    try {
      const answer = await findParcelShops({
        pageUid: view.pageUid,
        campaignUid: view.campaignUid,
        checkoutUid: view.uid,
        country,
        address,
        postCode,
        city,
      });
      setLookup({ state: 'done', shops: answer.parcelShops });
    } catch (error) {
      logFailure('finding parcel shops failed', error);
      setLookup({ state: 'failed' });
    }
  };

  return (
    <div className="parcel-shops" data-testid="parcel-shops">
      <button
        type="button"
        className="button button--secondary"
        disabled={!canSearch || lookup.state === 'loading'}
        onClick={() => void search()}
      >
        {t('checkout.parcelShop.find')}
      </button>
      {!canSearch && <p className="form-hint">{t('checkout.parcelShop.needAddress')}</p>}
      {lookup.state === 'failed' && (
        <p className="form-error" role="alert">
          {t('checkout.parcelShop.failed')}
        </p>
      )}
      {lookup.state === 'done' && lookup.shops.length === 0 && (
        <p className="form-error" role="alert" data-error="noParcelShop">
          {t('checkout.parcelShop.noneFound')}
        </p>
      )}
      {lookup.state === 'done' && lookup.shops.length > 0 && (
        <div className="choice-list" role="radiogroup" aria-label={t('checkout.parcelShop.title')}>
          {lookup.shops.map((shop) => (
            <label key={shop.id} className="choice">
              <input
                type="radio"
                name={`${id}-parcel-shop`}
                value={shop.id}
                checked={values.parcelShopId === shop.id}
                onChange={() => onChange({ ...values, parcelShopId: shop.id })}
              />
              <span className="choice__label">
                <strong>{shop.name}</strong>
                <br />
                {shop.address}, {shop.postCode} {shop.city}
              </span>
            </label>
          ))}
        </div>
      )}
      {lookup.state === 'idle' && values.parcelShopId && (
        <p className="pickup-choice__chosen" data-testid="chosen-parcel-shop">
          {view.parcelShop && view.parcelShop.id === values.parcelShopId
            ? t('checkout.parcelShop.chosenNamed', {
                name: view.parcelShop.name,
                address: `${view.parcelShop.address}, ${view.parcelShop.postCode} ${view.parcelShop.city}`,
              })
            : t('checkout.parcelShop.chosen')}
        </p>
      )}
    </div>
  );
}
