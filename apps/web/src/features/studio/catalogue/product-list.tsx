import { createColumnHelper } from '@tanstack/react-table';
import type { ArchivedFilter, StudioProductSummary } from '@vitrine/protocol';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useLocale } from '../../../lib/use-locale.ts';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { Pager } from '../ui/pager.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { StudioTableView } from '../ui/studio-table-view.tsx';
import { useStudioTable } from '../ui/use-studio-table.ts';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { priceText } from './catalogue-format.ts';

const PAGE_SIZE = 25;
/** How long typing may pause before the search asks the server. */
const SEARCH_DELAY_MS = 300;
const column = createColumnHelper<StudioProductSummary>();

/** The store's products: a searchable, paged table with the archived filter, import and export. */
export function ProductList() {
  const { t } = useStudioTranslation('studio-catalogue');
  const { locale } = useLocale();
  const store = useStudioStore();
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q') ?? '';
  const archived = (searchParams.get('archived') ?? 'active') as ArchivedFilter;
  const offset = Number(searchParams.get('offset') ?? '0') || 0;
  const [typed, setTyped] = useState(q);
  const [exportError, setExportError] = useState<string | null>(null);

  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(searchParams);
    for (const [key, value] of Object.entries(changes)) {
      if (value === '' || (key === 'archived' && value === 'active') || (key === 'offset' && value === '0'))
        next.delete(key);
      else next.set(key, value);
    }
    setSearchParams(next, { replace: true });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: only typing starts a search.
  useEffect(() => {
    if (typed === q) return;
    const timer = setTimeout(() => update({ q: typed, offset: '0' }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const info = useStaffQuery('getCatalogueInfo', { params: { pageUid: store.pageUid } });
  const list = useStaffQuery('listStudioProducts', {
    params: { pageUid: store.pageUid },
    query: { q, archived, offset, limit: PAGE_SIZE },
  });
  const currency = info.data?.currency ?? 'EUR';

  const columns = useMemo(
    () => [
      column.accessor('image', {
        header: () => <span className="visually-hidden">{t('list.image')}</span>,
        cell: (cell) =>
          cell.getValue() ? (
            <img className="catalogue-thumb" src={cell.getValue() ?? ''} alt="" loading="lazy" />
          ) : (
            <span className="catalogue-thumb catalogue-thumb--empty" />
          ),
      }),
      column.accessor('name', {
        header: () => t('list.name'),
        cell: (cell) => (
          <span className="catalogue-name">
            <Link to={cell.row.original.uid}>{cell.getValue()}</Link>
            {cell.row.original.archived && <span className="studio-badge">{t('list.archivedBadge')}</span>}
          </span>
        ),
      }),
      column.accessor('sku', { header: () => t('list.sku'), cell: (cell) => cell.getValue() || '–' }),
      column.accessor('variantCount', {
        header: () => t('list.variants'),
        cell: (cell) => cell.getValue() || '–',
        meta: { number: true },
      }),
      column.accessor('stock', {
        header: () => t('list.stock'),
        cell: (cell) => cell.getValue() ?? t('list.notTracked'),
        meta: { number: true },
      }),
      column.accessor('prices', {
        header: () => t('list.price'),
        cell: (cell) => priceText(cell.getValue(), currency, locale),
        meta: { number: true },
      }),
    ],
    [t, currency, locale],
  );
  const table = useStudioTable({ rows: list.data?.products, columns, rowId: (row) => row.uid });

  const exportCsv = async () => {
    setExportError(null);
    try {
      const date = new Date().toISOString().slice(0, 10);
      await downloadProductCsv(store.pageUid, `products-${store.pageUid}-${date}.csv`);
    } catch (error) {
      setExportError(refusalText(error, t('list.exportFailed')));
    }
  };

  const total = list.data?.total ?? 0;
  const shown = list.data?.products.length ?? 0;
  return (
    <StudioPage
      title={t('list.title')}
      actions={
        <>
          <button type="button" className="studio-button" onClick={() => void exportCsv()}>
            {t('list.export')}
          </button>
          <Link to="import" className="studio-button">
            {t('list.import')}
          </Link>
          <Link to="new" className="studio-button studio-button--primary">
            {t('list.new')}
          </Link>
        </>
      }
    >
      <search className="studio-toolbar">
        <SearchField
          className="catalogue-search"
          label={t('list.search')}
          value={typed}
          placeholder={t('list.searchPlaceholder')}
          onChange={setTyped}
        />
        <label className="studio-field">
          <span className="studio-field__label">{t('list.show')}</span>
          <select
            className="studio-input"
            value={archived}
            onChange={(event) => update({ archived: event.target.value, offset: '0' })}
          >
            <option value="active">{t('list.filterActive')}</option>
            <option value="archived">{t('list.filterArchived')}</option>
            <option value="all">{t('list.filterAll')}</option>
          </select>
        </label>
      </search>
      <ErrorNotice message={exportError} />
      {list.error && <ErrorNotice message={refusalText(list.error, t('list.failed'))} />}
      {list.loading && !list.data ? (
        <StudioLoading />
      ) : shown === 0 ? (
        <p className="studio-notice">{q ? t('list.noMatch', { q }) : t('list.empty')}</p>
      ) : (
        <div className="studio-table-wrap">
          <StudioTableView table={table} className="studio-table catalogue-table" busy={list.loading} />
        </div>
      )}
      {total > 0 && (
        <Pager
          rangeText={t('list.range', { from: offset + 1, to: offset + shown, total })}
          onPrevious={offset > 0 ? () => update({ offset: String(Math.max(0, offset - PAGE_SIZE)) }) : null}
          onNext={offset + shown < total ? () => update({ offset: String(offset + PAGE_SIZE) }) : null}
        />
      )}
    </StudioPage>
  );
}

/** The export call answers the CSV as JSON text; the browser saves it as a file. */
async function downloadProductCsv(pageUid: string, fallbackName: string): Promise<void> {
  const { csv, filename } = await staffCall('exportProducts', { params: { pageUid } });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  link.download = filename || fallbackName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}
