import type { ReactNode } from 'react';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { Pager } from '../ui/pager.tsx';
import type { CursorPages } from '../ui/use-cursor-pages.ts';
import { refusalText } from '../use-staff-query.ts';

/**
 * One filter of a list (a contact's consent, a mail's status) as a select above it; a change
 * starts the list again from its first page.
 */
export function ListFilter({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The `<option>`s. */
  children: ReactNode;
}) {
  return (
    <div className="studio-toolbar studio-orders-filters">
      <label>
        <span className="studio-field__label">{label}</span>
        <select className="studio-input" value={value} onChange={(event) => onChange(event.target.value)}>
          {children}
        </select>
      </label>
    </div>
  );
}

/**
 * A page of a list of the orders area (orders, contacts, mails): why it failed to load, the table
 * (busy while a page loads), what to say when there is nothing, and paging by cursor.
 */
export function PagedTable({
  list,
  shown,
  pages,
  nextCursor,
  empty,
  children,
}: {
  list: { error: Error | null; loading: boolean };
  /** How many rows the page shows. */
  shown: number;
  pages: CursorPages;
  /** The answer's cursor of the next page; none on the last. */
  nextCursor: string | null | undefined;
  empty: string;
  /** The `<table>`. */
  children: ReactNode;
}) {
  const { t } = useStudioTranslation('studio-orders');
  return (
    <>
      {list.error && <ErrorNotice message={refusalText(list.error, t('list.failed'))} />}
      <div className="studio-table-wrap" aria-busy={list.loading}>
        {children}
        {!list.loading && shown === 0 && <p className="studio-notice">{empty}</p>}
      </div>
      <Pager
        rangeText={(() => {
          const range = pages.range(shown);
          return range ? t('list.range', range) : '';
        })()}
        onPrevious={pages.previous}
        onNext={pages.next(nextCursor)}
      />
    </>
  );
}
