import type { ColumnDef } from '@tanstack/react-table';
import type { StudioOrderSummary } from '@vitrine/protocol';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useLocale } from '../../../lib/use-locale.ts';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { StudioPage } from '../ui/studio-page.tsx';
import { StudioTableView } from '../ui/studio-table-view.tsx';
import { useCursorPages } from '../ui/use-cursor-pages.ts';
import { useStudioTable } from '../ui/use-studio-table.ts';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { dayStart, saveCsv } from './csv-download.ts';
import { PagedTable } from './paged-list.tsx';
import './orders.css';

const PAGE_SIZE = 50;

interface Filters {
  q: string;
  campaignUid: string;
  status: '' | 'ordered' | 'locked';
  paid: '' | 'true' | 'false';
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { q: '', campaignUid: '', status: '', paid: '', from: '', to: '' };

/** The filters as the list and export calls take them (empty ones left out). */
function queryOf(filters: Filters) {
  return {
    q: filters.q.trim(),
    campaignUid: filters.campaignUid,
    status: filters.status,
    paid: filters.paid,
    from: dayStart(filters.from),
    to: dayStart(filters.to, true),
  };
}

/** The store's orders: filters, search, a page of 50 at a time (keyset cursors) and CSV export. */
export function OrdersListPage() {
  const { t } = useStudioTranslation('studio-orders');
  const format = useLocale();
  const { pageUid } = useStudioStore();
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const pages = useCursorPages(PAGE_SIZE);
  const [exporting, setExporting] = useState<string | null>(null);
  const list = useStaffQuery('listStudioOrders', {
    params: { pageUid },
    query: { ...queryOf(filters), after: pages.cursor, limit: PAGE_SIZE },
  });
  const options = useStaffQuery('studioOrderFilters', { params: { pageUid } });

  const columns = useMemo<ColumnDef<StudioOrderSummary>[]>(
    () => [
      {
        header: t('list.number'),
        accessorKey: 'orderNumber',
        cell: ({ row }) => <Link to={row.original.checkoutUid}>{row.original.orderNumber}</Link>,
      },
      { header: t('list.date'), cell: ({ row }) => format.dateTime(row.original.orderedAt) },
      {
        header: t('list.customer'),
        cell: ({ row }) => (
          <>
            <div>{row.original.customerName || '—'}</div>
            <div className="studio-small studio-muted">{row.original.customerEmail}</div>
          </>
        ),
      },
      { header: t('list.show'), accessorKey: 'campaignName' },
      {
        header: t('list.status'),
        cell: ({ row }) => (
          <span className={`studio-badge studio-badge--${row.original.fulfilment ?? row.original.status}`}>
            {row.original.fulfilment && row.original.fulfilment !== 'packing'
              ? t(`fulfilment.status.${row.original.fulfilment}`)
              : t(`status.${row.original.status}`)}
          </span>
        ),
      },
      {
        header: t('list.payment'),
        cell: ({ row }) => (
          <span
            className={`studio-badge ${row.original.payed ? 'studio-badge--paid' : 'studio-badge--unpaid'}`}
          >
            {row.original.payed ? t('paid.true') : t('paid.false')}
          </span>
        ),
      },
      {
        header: t('list.total'),
        id: 'total',
        meta: { number: true },
        cell: ({ row }) => format.money(row.original.totalPrice, row.original.currency),
      },
    ],
    [t, format],
  );
  const table = useStudioTable({ rows: list.data?.orders, columns, rowId: (row) => row.checkoutUid });

  const apply = (next: Filters) => {
    setFilters(next);
    pages.restart();
  };
  const set = (field: keyof Filters) => (event: { target: { value: string } }) =>
    setDraft((previous) => ({ ...previous, [field]: event.target.value }));

  const exportCsv = async () => {
    setExporting(t('list.exporting'));
    try {
      saveCsv(await staffCall('exportStudioOrders', { params: { pageUid }, query: queryOf(filters) }));
      setExporting(null);
    } catch (error) {
      setExporting(refusalText(error, t('list.exportFailed')));
    }
  };

  return (
    <StudioPage
      title={t('list.title')}
      actions={
        <button type="button" className="studio-button" onClick={() => void exportCsv()}>
          {t('list.export')}
        </button>
      }
    >
      {exporting && (
        <p className="studio-notice" role="status">
          {exporting}
        </p>
      )}
      <form
        className="studio-toolbar studio-orders-filters"
        onSubmit={(event) => {
          event.preventDefault();
          apply(draft);
        }}
        aria-label={t('list.filters')}
      >
        <label className="studio-orders-filters__search">
          <span className="studio-field__label">{t('list.search')}</span>
          <input
            className="studio-input"
            type="search"
            value={draft.q}
            onChange={set('q')}
            placeholder={t('list.searchHint')}
            maxLength={200}
          />
        </label>
        <label>
          <span className="studio-field__label">{t('list.show')}</span>
          <select className="studio-input" value={draft.campaignUid} onChange={set('campaignUid')}>
            <option value="">{t('list.allShows')}</option>
            {options.data?.campaigns.map((campaign) => (
              <option key={campaign.uid} value={campaign.uid}>
                {campaign.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="studio-field__label">{t('list.status')}</span>
          <select className="studio-input" value={draft.status} onChange={set('status')}>
            <option value="">{t('list.any')}</option>
            <option value="ordered">{t('status.ordered')}</option>
            <option value="locked">{t('status.locked')}</option>
          </select>
        </label>
        <label>
          <span className="studio-field__label">{t('list.payment')}</span>
          <select className="studio-input" value={draft.paid} onChange={set('paid')}>
            <option value="">{t('list.any')}</option>
            <option value="true">{t('paid.true')}</option>
            <option value="false">{t('paid.false')}</option>
          </select>
        </label>
        <label>
          <span className="studio-field__label">{t('list.from')}</span>
          <input className="studio-input" type="date" value={draft.from} onChange={set('from')} />
        </label>
        <label>
          <span className="studio-field__label">{t('list.to')}</span>
          <input className="studio-input" type="date" value={draft.to} onChange={set('to')} />
        </label>
        <div className="studio-orders-filters__buttons">
          <button type="submit" className="studio-button studio-button--primary">
            {t('list.apply')}
          </button>
          <button
            type="button"
            className="studio-button studio-button--quiet"
            onClick={() => {
              setDraft(NO_FILTERS);
              apply(NO_FILTERS);
            }}
          >
            {t('list.clear')}
          </button>
        </div>
      </form>
      <PagedTable
        list={list}
        shown={list.data?.orders.length ?? 0}
        pages={pages}
        nextCursor={list.data?.nextAfter}
        empty={t('list.none')}
      >
        <StudioTableView table={table} caption={t('list.title')} />
      </PagedTable>
    </StudioPage>
  );
}
