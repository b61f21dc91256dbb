import { zodResolver } from '@hookform/resolvers/zod';
import { minorUnitDigits } from '@vitrine/domain';
import { PickupStoresSettings, type PriceList, ShippingSettings } from '@vitrine/protocol';
import { type Currency, SHIPPING_METHOD_KINDS, type ShippingMethodKind } from '@vitrine/protocol/vocabulary';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { staffCall } from '../studio-api.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { FormField } from '../ui/form-field.tsx';
import { SettingsCard } from './settings-card.tsx';
import type { OwnerSettingsFormProps } from './store-info-forms.tsx';
import { useSave } from './use-save.ts';

/** Minor units as the amount a retailer types ("49.00"); empty for no price. */
function toAmount(minor: number | undefined, currency: Currency): string {
  if (minor === undefined) return '';
  const digits = minorUnitDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}

/** A typed amount in minor units; NaN when it is not a number, undefined when empty. */
function toMinor(amount: string, currency: Currency): number | undefined {
  const text = amount.trim().replace(',', '.');
  if (!text) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(text)) return Number.NaN;
  return Math.round(Number(text) * 10 ** minorUnitDigits(currency));
}

type AmountTable = Record<string, string>;

function toPriceList(amounts: AmountTable, currencies: readonly Currency[]): PriceList {
  const list: Record<string, number> = {};
  for (const currency of currencies) {
    const minor = toMinor(amounts[currency] ?? '', currency);
    if (minor !== undefined) list[currency] = minor;
  }
  return list;
}

/**
 * Shipping methods with freight per currency and the free-delivery threshold. Amounts are typed
 * in major units and checked, once in minor units, with the server's ShippingSettings schema.
 */
export function ShippingForm({ pageUid, settings, onSaved, canSave }: OwnerSettingsFormProps) {
  const { t } = useStudioTranslation('studio-settings');
  const { state, busy, save } = useSave(onSaved);
  const currencies = settings.sales.currencies;
  const [enabled, setEnabled] = useState(
    Object.fromEntries(
      SHIPPING_METHOD_KINDS.map((kind) => [kind, settings.shipping.methods[kind].enabled]),
    ) as Record<ShippingMethodKind, boolean>,
  );
  const [prices, setPrices] = useState(
    Object.fromEntries(
      SHIPPING_METHOD_KINDS.map((kind) => [
        kind,
        Object.fromEntries(
          currencies.map((currency) => [
            currency,
            toAmount(settings.shipping.methods[kind].prices[currency], currency),
          ]),
        ),
      ]),
    ) as Record<ShippingMethodKind, AmountTable>,
  );
  const [freeOver, setFreeOver] = useState<AmountTable>(
    Object.fromEntries(
      currencies.map((currency) => [
        currency,
        toAmount(settings.shipping.freeDeliveryOver[currency], currency),
      ]),
    ),
  );
  const [problems, setProblems] = useState<Record<string, string>>({});

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    // Prices in currencies not sold (hidden here) are kept as stored.
    const methods = Object.fromEntries(
      SHIPPING_METHOD_KINDS.map((kind) => [
        kind,
        {
          enabled: enabled[kind],
          prices: { ...settings.shipping.methods[kind].prices, ...toPriceList(prices[kind], currencies) },
        },
      ]),
    );
    for (const kind of SHIPPING_METHOD_KINDS) {
      for (const currency of currencies) {
        if ((prices[kind][currency] ?? '').trim() === '') delete methods[kind]?.prices[currency];
      }
    }
    const threshold: PriceList = {
      ...settings.shipping.freeDeliveryOver,
      ...toPriceList(freeOver, currencies),
    };
    for (const currency of currencies)
      if ((freeOver[currency] ?? '').trim() === '') delete threshold[currency];
    const parsed = ShippingSettings.safeParse({ methods, freeDeliveryOver: threshold });
    if (!parsed.success) {
      setProblems(
        Object.fromEntries(
          parsed.error.issues.map((issue) => [
            issue.path.filter((part) => part !== 'prices').join('.'),
            Number.isNaN(issue.input) ? t('shipping.notAnAmount') : issue.message,
          ]),
        ),
      );
      return;
    }
    setProblems({});
    void save(() => staffCall('putStoreShipping', { params: { pageUid }, body: parsed.data }));
  };

  const amountInput = (
    label: string,
    value: string,
    onChange: (value: string) => void,
    problem: string | undefined,
  ) => (
    <FormField label={label} error={problem} className="settings-amount">
      {(props) => (
        <input
          {...props}
          className="studio-input"
          inputMode="decimal"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </FormField>
  );

  return (
    <SettingsCard
      id="shipping"
      title={t('shipping.title')}
      description={t('shipping.description')}
      onSubmit={submit}
      busy={busy}
      state={state}
      canSave={canSave}
    >
      <ErrorNotice message={problems.methods} />
      {SHIPPING_METHOD_KINDS.map((kind) => (
        <fieldset key={kind} className="settings-method">
          <legend>
            <label className="settings-check">
              <input
                type="checkbox"
                checked={enabled[kind]}
                onChange={(event) => setEnabled({ ...enabled, [kind]: event.target.checked })}
              />
              {t(`shipping.kinds.${kind}`)}
            </label>
          </legend>
          <div className="settings-amounts">
            {currencies.map((currency) =>
              amountInput(
                t('shipping.priceIn', { currency }),
                prices[kind][currency] ?? '',
                (value) => setPrices({ ...prices, [kind]: { ...prices[kind], [currency]: value } }),
                problems[`methods.${kind}.${currency}`],
              ),
            )}
          </div>
        </fieldset>
      ))}
      <p className="studio-muted studio-small">{t('shipping.emptyPrice')}</p>
      <fieldset className="settings-method">
        <legend>{t('shipping.freeOver')}</legend>
        <div className="settings-amounts">
          {currencies.map((currency) =>
            amountInput(
              t('shipping.freeOverIn', { currency }),
              freeOver[currency] ?? '',
              (value) => setFreeOver({ ...freeOver, [currency]: value }),
              problems[`freeDeliveryOver.${currency}`],
            ),
          )}
        </div>
        <p className="studio-muted studio-small">{t('shipping.freeOverHint')}</p>
      </fieldset>
    </SettingsCard>
  );
}

type PickupInput = z.input<typeof PickupStoresSettings>;

export function PickupStoresForm({ pageUid, settings, onSaved, canSave }: OwnerSettingsFormProps) {
  const { t } = useStudioTranslation('studio-settings');
  const { state, busy, save } = useSave(onSaved);
  const form = useForm<PickupInput, unknown, z.output<typeof PickupStoresSettings>>({
    resolver: zodResolver(PickupStoresSettings),
    defaultValues: { pickupStores: settings.pickupStores },
  });
  const stores = useFieldArray({ control: form.control, name: 'pickupStores' });
  const errors = form.formState.errors.pickupStores;
  const submit = form.handleSubmit((body) =>
    save(async () => {
      const saved = await staffCall('putStorePickupStores', { params: { pageUid }, body });
      form.reset({ pickupStores: saved.pickupStores ?? [] });
      return saved;
    }),
  );
  const field = (
    index: number,
    name: 'name' | 'street' | 'postCode' | 'city' | 'openingHours',
    label: string,
  ) => (
    <FormField label={label} error={errors?.[index]?.[name]?.message}>
      {(props) => (
        <input
          {...props}
          className="studio-input"
          {...form.register(`pickupStores.${index}.${name}`)}
          {...(name === 'openingHours' ? { placeholder: t('pickup.hoursExample') } : {})}
        />
      )}
    </FormField>
  );
  return (
    <SettingsCard
      id="pickup"
      title={t('pickup.title')}
      description={t('pickup.description')}
      onSubmit={submit}
      busy={busy}
      state={state}
      canSave={canSave}
    >
      {stores.fields.length === 0 && <p className="studio-muted">{t('pickup.none')}</p>}
      {stores.fields.map((store, index) => (
        <fieldset key={store.id} className="settings-method">
          <legend>{t('pickup.store', { number: index + 1 })}</legend>
          <div className="studio-form-grid">
            {field(index, 'name', t('pickup.name'))}
            {field(index, 'street', t('pickup.street'))}
            {field(index, 'postCode', t('pickup.postCode'))}
            {field(index, 'city', t('pickup.city'))}
            {field(index, 'openingHours', t('pickup.hours'))}
          </div>
          <button
            type="button"
            className="studio-button studio-button--quiet"
            onClick={() => stores.remove(index)}
          >
            {t('pickup.remove')}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        className="studio-button"
        onClick={() => stores.append({ name: '', street: '', postCode: '', city: '', openingHours: '' })}
      >
        {t('pickup.add')}
      </button>
    </SettingsCard>
  );
}
