import { zodResolver } from '@hookform/resolvers/zod';
import { minorUnitDigits } from '@vitrine/domain';
import { type StudioOrderDetail, StudioRefundRequest } from '@vitrine/protocol';
import { useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { useLocale } from '../../../lib/use-locale.ts';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ConfirmButton, ConfirmDialog } from '../ui/confirm-button.tsx';
import { DataTable } from '../ui/data-table.tsx';
import { FormField } from '../ui/form-field.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { FulfilmentPanel } from './fulfilment-panel.tsx';
import './orders.css';

/** A fresh key per refund form shown: a double click or a retried request is one refund. */
const newRequestKey = () => crypto.randomUUID();

/** One order: lines, totals, delivery, payments, refunds and timeline; packing and refunds. */
export function OrderDetailPage() {
  const { t } = useStudioTranslation('studio-orders');
  const { pageUid } = useStudioStore();
  const checkoutUid = useParams().checkoutUid ?? '';
  const query = useStaffQuery('getStudioOrder', { params: { pageUid, checkoutUid } });
  const [changed, setChanged] = useState<StudioOrderDetail | null>(null);
  const detail = changed && changed.order.uid === checkoutUid ? changed : query.data;

  if (query.error && !detail) {
    return (
      <StudioPage title={t('detail.title', { number: '' })}>
        <p className="studio-notice studio-notice--error" role="alert">
          {refusalText(query.error, t('detail.failed'))}
        </p>
        <Link to="..">{t('detail.back')}</Link>
      </StudioPage>
    );
  }
  if (!detail) return <p className="studio-loading">{t('studio:loading')}</p>;
  return <OrderDetailView detail={detail} onChange={setChanged} />;
}

/** An order as shown, and where a change's answer (the order as stored) goes. */
interface OrderProps {
  detail: StudioOrderDetail;
  onChange: (detail: StudioOrderDetail) => void;
}

function OrderDetailView({ detail, onChange }: OrderProps) {
  const { t } = useStudioTranslation('studio-orders');
  const format = useLocale();
  const { pageUid } = useStudioStore();
  const { order } = detail;
  const money = (amount: number) => format.money(amount, order.currency);
  const address = order.details.address;
  const params = { pageUid, checkoutUid: order.uid };

  return (
    <StudioPage
      title={t('detail.title', { number: order.orderNumber ?? '' })}
      actions={
        <>
          <Link className="studio-button studio-button--quiet" to="..">
            {t('detail.back')}
          </Link>
          <ConfirmButton
            danger={false}
            disabled={order.locked}
            title={t('packing.title')}
            message={t('packing.message')}
            confirmLabel={t('packing.confirm')}
            onConfirm={async () => onChange(await staffCall('sendStudioOrderToPacking', { params }))}
          >
            {order.locked ? t('packing.done') : t('packing.button')}
          </ConfirmButton>
        </>
      }
    >
      <p className="studio-order-badges">
        <span className={`studio-badge studio-badge--${order.status}`}>
          {order.fulfilment && order.fulfilment.status !== 'packing'
            ? t(`fulfilment.status.${order.fulfilment.status}`)
            : t(`status.${order.status}`)}
        </span>{' '}
        <span className={`studio-badge ${order.payed ? 'studio-badge--paid' : 'studio-badge--unpaid'}`}>
          {order.payed ? t('paid.true') : t('paid.false')}
        </span>{' '}
        <span className="studio-muted">
          {detail.campaignName}
          {order.orderedAt !== null && ` · ${format.dateTime(order.orderedAt)}`}
        </span>
      </p>
      <div className="studio-order-grid">
        <section className="studio-card studio-order-grid__wide" aria-labelledby="order-lines">
          <h2 id="order-lines">{t('detail.lines')}</h2>
          <div className="studio-order-scroll">
            <DataTable
              columns={[
                {
                  header: t('detail.item'),
                  cell: (item) => (
                    <>
                      {item.item}
                      {item.variantName && <span className="studio-muted"> · {item.variantName}</span>}
                    </>
                  ),
                },
                { header: t('detail.sku'), cell: (item) => item.sku },
                { header: t('detail.quantity'), cell: (item) => item.quantity, number: true },
                { header: t('detail.price'), cell: (item) => money(item.price), number: true },
                { header: t('detail.lineTotal'), cell: (item) => money(item.total), number: true },
              ]}
              rows={order.items}
              rowKey={(item) => `${item.productUid}:${item.variantUid ?? ''}`}
            >
              <tfoot>
                <tr>
                  <th scope="row" colSpan={4}>
                    {t('detail.subtotal')}
                  </th>
                  <td className="studio-table__number">{money(order.subtotal)}</td>
                </tr>
                <tr>
                  <th scope="row" colSpan={4}>
                    {t('detail.freight')}
                  </th>
                  <td className="studio-table__number">{money(order.freight)}</td>
                </tr>
                <tr>
                  <th scope="row" colSpan={4}>
                    {t('detail.total')}
                  </th>
                  <td className="studio-table__number">
                    <strong>{money(order.totalPrice)}</strong>
                  </td>
                </tr>
                <tr>
                  <th scope="row" colSpan={4}>
                    {t('detail.paidAmount')}
                  </th>
                  <td className="studio-table__number">{money(order.paidAmount)}</td>
                </tr>
              </tfoot>
            </DataTable>
          </div>
        </section>
        <section className="studio-card" aria-labelledby="order-delivery">
          <h2 id="order-delivery">{t('detail.delivery')}</h2>
          <p>
            {order.details.shippingMethod ? t(`shipping.${order.details.shippingMethod}`) : '—'}
            {order.details.deliveryCountry && ` · ${order.details.deliveryCountry}`}
          </p>
          {detail.pickupLocation && (
            <p>
              <strong>{t('detail.pickupPoint')}:</strong> {detail.pickupLocation.name},{' '}
              {detail.pickupLocation.address}
            </p>
          )}
          {order.parcelShop && (
            <p>
              <strong>{t('detail.parcelShop')}:</strong> {order.parcelShop.name}, {order.parcelShop.address}
            </p>
          )}
          <h3>{t('detail.customer')}</h3>
          <address className="studio-order-address">
            {[
              address.name,
              address.address,
              `${address.postCode} ${address.city}`.trim(),
              address.phone,
              address.emailAddress,
            ]
              .filter(Boolean)
              .map((line) => (
                <span key={line}>{line}</span>
              ))}
          </address>
          {address.note && (
            <p>
              <strong>{t('detail.note')}:</strong> {address.note}
            </p>
          )}
        </section>
        {order.locked && <FulfilmentPanel detail={detail} onChange={onChange} />}
        <section className="studio-card studio-order-grid__wide" aria-labelledby="order-payments">
          <h2 id="order-payments">{t('detail.payments')}</h2>
          {order.transactions.length === 0 ? (
            <p className="studio-muted">{t('detail.noPayments')}</p>
          ) : (
            <div className="studio-order-scroll">
              <DataTable
                columns={[
                  { header: t('detail.when'), cell: (transaction) => format.dateTime(transaction.created) },
                  { header: t('detail.provider'), cell: (transaction) => transaction.provider },
                  { header: t('list.status'), cell: (transaction) => t(`payment.${transaction.status}`) },
                  {
                    header: t('detail.amount'),
                    cell: (transaction) => money(transaction.totalPrice),
                    number: true,
                  },
                  {
                    header: t('detail.refunded'),
                    cell: (transaction) => money(transaction.amountRefunded),
                    number: true,
                  },
                ]}
                rows={order.transactions}
                rowKey={(transaction) => transaction.uid}
              />
            </div>
          )}
          <h3>{t('refund.heading')}</h3>
          {detail.refunds.length > 0 && (
            <ul className="studio-order-refunds">
              {detail.refunds.map((refund) => (
                <li key={refund.uid}>
                  {format.dateTime(refund.createdAt)} · {money(refund.amount)} ·{' '}
                  {t(`refund.${refund.status}`)} · {refund.requestedBy}
                  {refund.error && <span className="studio-muted"> ({refund.error})</span>}
                </li>
              ))}
            </ul>
          )}
          <RefundForm detail={detail} onChange={onChange} />
        </section>
        <section className="studio-card" aria-labelledby="order-timeline">
          <h2 id="order-timeline">{t('detail.timeline')}</h2>
          <ol className="studio-order-timeline">
            {detail.timeline.map((entry) => (
              <li key={`${entry.kind}-${entry.at}-${entry.amount ?? ''}`}>
                <time dateTime={new Date(entry.at).toISOString()}>{format.dateTime(entry.at)}</time>{' '}
                {t(`timeline.${entry.kind}`)}
                {entry.amount !== null && ` · ${money(entry.amount)}`}
              </li>
            ))}
          </ol>
        </section>
      </div>
    </StudioPage>
  );
}

/**
 * The refund form: an amount in the order's currency (as typed, e.g. 49.50), at most what is
 * refundable, converted to minor units and checked with the server's own schema before sending.
 */
function RefundForm({ detail, onChange }: OrderProps) {
  const { t } = useStudioTranslation('studio-orders');
  const format = useLocale();
  const { pageUid } = useStudioStore();
  const { order, refundable } = detail;
  const digits = minorUnitDigits(order.currency);
  const [requestKey, setRequestKey] = useState(newRequestKey);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState<number | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const schema = useMemo(
    () =>
      z.object({
        amount: z
          .string()
          .trim()
          .regex(digits === 0 ? /^\d+$/ : new RegExp(`^\\d+([.,]\\d{1,${digits}})?$`), t('refund.notAmount'))
          .transform((text) => Math.round(Number(text.replace(',', '.')) * 10 ** digits))
          .pipe(
            StudioRefundRequest.shape.amount.max(
              refundable,
              t('refund.tooMuch', { max: format.money(refundable, order.currency) }),
            ),
          ),
      }),
    [digits, refundable, order.currency, t, format],
  );
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { amount: '' },
  });

  if (refundable === 0) return <p className="studio-muted">{t('refund.nothing')}</p>;
  const amountText = (amount: number) => format.money(amount, order.currency);

  const send = async () => {
    if (pending === null) return;
    const body = StudioRefundRequest.parse({ amount: pending, requestKey });
    onChange(await staffCall('refundStudioOrder', { params: { pageUid, checkoutUid: order.uid }, body }));
    setDone(t('refund.done', { amount: amountText(pending) }));
    setRequestKey(newRequestKey());
    form.reset({ amount: '' });
  };

  return (
    <form
      className="studio-order-refund"
      noValidate
      onSubmit={form.handleSubmit(({ amount }) => {
        // Confirmed in a dialog before anything is sent.
        setPending(amount);
        setDone(null);
        dialog.current?.showModal();
      })}
    >
      <FormField
        label={t('refund.amount', { currency: order.currency })}
        hint={t('refund.hint', { max: amountText(refundable) })}
        error={form.formState.errors.amount?.message}
      >
        {(field) => <input {...field} {...form.register('amount')} inputMode="decimal" autoComplete="off" />}
      </FormField>
      <div className="studio-order-refund__buttons">
        <button
          type="button"
          className="studio-button studio-button--quiet"
          onClick={() =>
            form.setValue('amount', (refundable / 10 ** digits).toFixed(digits), { shouldValidate: true })
          }
        >
          {t('refund.all')}
        </button>
        <button type="submit" className="studio-button studio-button--danger">
          {t('refund.button')}
        </button>
      </div>
      {done && (
        <p className="studio-notice studio-notice--success" role="status">
          {done}
        </p>
      )}
      <ConfirmDialog
        dialog={dialog}
        titleId="refund-dialog-title"
        title={t('refund.confirmTitle')}
        message={t('refund.confirmMessage', { amount: amountText(pending ?? 0) })}
        confirmLabel={t('refund.confirm')}
        onConfirm={send}
        failureText={(error) => refusalText(error, t('refund.error'))}
      />
    </form>
  );
}
