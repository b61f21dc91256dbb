import { CARRIER_TRACKING_TEMPLATES, nextFulfilmentSteps } from '@vitrine/domain';
import type { StudioFulfilmentRequest, StudioOrderDetail } from '@vitrine/protocol';
import { FULFILMENT_STATUSES, KNOWN_CARRIERS } from '@vitrine/protocol/vocabulary';
import { useState } from 'react';
import { useLocale } from '../../../lib/use-locale.ts';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { FormField } from '../ui/form-field.tsx';
import { useStaffAction } from '../use-staff-action.ts';
import { OTHER_CARRIER, type ShipmentForm, shipmentRequest } from './fulfilment-form.ts';

/**
 * Where a sent-to-packing order is, and its next steps (issue 33 item 11): the steps done with
 * their time, the parcel's tracking, a button per next step and the shipping form.
 */
export function FulfilmentPanel({
  detail,
  onChange,
}: {
  detail: StudioOrderDetail;
  onChange: (detail: StudioOrderDetail) => void;
}) {
  const { t } = useStudioTranslation('studio-orders');
  const format = useLocale();
  const { pageUid } = useStudioStore();
  const { order } = detail;
  const fulfilment = order.fulfilment ?? null;
  const { busy, failure, run } = useStaffAction(t('fulfilment.failed'));

  const advance = (request: StudioFulfilmentRequest) =>
    run(async () =>
      onChange(
        await staffCall('advanceStudioOrder', { params: { pageUid, checkoutUid: order.uid }, body: request }),
      ),
    );

  if (!fulfilment) return null;
  const next = nextFulfilmentSteps(fulfilment.status, order.details.shippingMethod);
  const reached = FULFILMENT_STATUSES.indexOf(fulfilment.status);
  const stepTime = {
    packing: detail.timeline.find((entry) => entry.kind === 'sentToPacking')?.at ?? null,
    packed: fulfilment.packedAt,
    shipped: fulfilment.shippedAt,
    delivered: fulfilment.deliveredAt,
  } as const;
  const pickup = order.details.shippingMethod === 'store_pickup';

  return (
    <section className="studio-card studio-order-grid__wide" aria-labelledby="order-fulfilment">
      <h2 id="order-fulfilment">{t('fulfilment.title')}</h2>
      <ol className="studio-fulfilment-steps">
        {FULFILMENT_STATUSES.filter((step) => !(pickup && step === 'shipped')).map((step) => {
          const index = FULFILMENT_STATUSES.indexOf(step);
          const at = stepTime[step];
          return (
            <li
              key={step}
              className={`studio-fulfilment-step${index <= reached ? ' studio-fulfilment-step--done' : ''}`}
              aria-current={step === fulfilment.status ? 'step' : undefined}
            >
              <span>
                {t(
                  pickup && step === 'delivered'
                    ? 'fulfilment.status.collected'
                    : `fulfilment.status.${step}`,
                )}
              </span>
              {at !== null && <span className="studio-muted"> {format.dateTime(at)}</span>}
            </li>
          );
        })}
      </ol>
      {fulfilment.trackingNumber && (
        <p data-testid="studio-tracking">
          <strong>{t('fulfilment.carrier')}:</strong> {fulfilment.carrierName} ·{' '}
          <strong>{t('fulfilment.trackingNumber')}:</strong> {fulfilment.trackingNumber}
          {fulfilment.trackingUrl && (
            <>
              {' · '}
              <a href={fulfilment.trackingUrl} target="_blank" rel="noopener noreferrer">
                {t('fulfilment.track')}
              </a>
            </>
          )}
        </p>
      )}
      <div className="studio-fulfilment-actions">
        {next.includes('packed') && (
          <button
            type="button"
            className="studio-button"
            disabled={busy}
            onClick={() => advance({ status: 'packed' })}
          >
            {t('fulfilment.markPacked')}
          </button>
        )}
        {next.includes('delivered') && (
          <button
            type="button"
            className="studio-button"
            disabled={busy}
            onClick={() => advance({ status: 'delivered' })}
          >
            {t(pickup ? 'fulfilment.markCollected' : 'fulfilment.markDelivered')}
          </button>
        )}
      </div>
      <ErrorNotice message={failure} />
      {next.includes('shipped') && (
        <ShipmentFormView
          corrects={fulfilment.status === 'shipped'}
          busy={busy}
          onShip={(request) => advance(request)}
        />
      )}
    </section>
  );
}

function ShipmentFormView({
  corrects,
  busy,
  onShip,
}: {
  corrects: boolean;
  busy: boolean;
  onShip: (request: StudioFulfilmentRequest) => void;
}) {
  const { t } = useStudioTranslation('studio-orders');
  const [form, setForm] = useState<ShipmentForm>({
    carrier: KNOWN_CARRIERS[0],
    otherCarrier: '',
    trackingNumber: '',
    trackingUrl: '',
  });
  const [problem, setProblem] = useState<{ field: keyof ShipmentForm; text: string } | null>(null);
  const set = (field: keyof ShipmentForm) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setForm((current) => ({ ...current, [field]: value }));
  };
  const errorOf = (field: keyof ShipmentForm) => (problem?.field === field ? problem.text : undefined);

  return (
    <form
      className="studio-fulfilment-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const checked = shipmentRequest(form);
        if (!checked.ok) {
          setProblem({ field: checked.field, text: t(`fulfilment.problem.${checked.problem}`) });
          return;
        }
        setProblem(null);
        onShip(checked.request);
      }}
    >
      <h3>{corrects ? t('fulfilment.correctTitle') : t('fulfilment.shipTitle')}</h3>
      <div className="studio-fulfilment-form__fields">
        <FormField label={t('fulfilment.carrier')}>
          {(field) => (
            <select {...field} className="studio-input" value={form.carrier} onChange={set('carrier')}>
              {KNOWN_CARRIERS.map((carrier) => (
                <option key={carrier} value={carrier}>
                  {CARRIER_TRACKING_TEMPLATES[carrier].name}
                </option>
              ))}
              <option value={OTHER_CARRIER}>{t('fulfilment.otherCarrier')}</option>
            </select>
          )}
        </FormField>
        {form.carrier === OTHER_CARRIER && (
          <FormField label={t('fulfilment.carrierName')} error={errorOf('otherCarrier')}>
            {(field) => (
              <input {...field} value={form.otherCarrier} onChange={set('otherCarrier')} maxLength={60} />
            )}
          </FormField>
        )}
        <FormField label={t('fulfilment.trackingNumber')} error={errorOf('trackingNumber')}>
          {(field) => (
            <input
              {...field}
              value={form.trackingNumber}
              onChange={set('trackingNumber')}
              maxLength={100}
              autoComplete="off"
            />
          )}
        </FormField>
        <FormField
          label={t('fulfilment.trackingUrl')}
          hint={t(
            form.carrier === OTHER_CARRIER ? 'fulfilment.trackingUrlNeeded' : 'fulfilment.trackingUrlHint',
          )}
          error={errorOf('trackingUrl')}
        >
          {(field) => (
            <input
              {...field}
              type="url"
              inputMode="url"
              value={form.trackingUrl}
              onChange={set('trackingUrl')}
              placeholder="https://"
              maxLength={2000}
            />
          )}
        </FormField>
      </div>
      <button type="submit" className="studio-button studio-button--primary" disabled={busy}>
        {corrects ? t('fulfilment.correct') : t('fulfilment.markShipped')}
      </button>
    </form>
  );
}
