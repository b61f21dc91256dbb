import type { CurrencyAmount } from '@vitrine/protocol';
import type { ReactNode } from 'react';
import { type DataColumn, DataTable } from '../ui/data-table.tsx';

/**
 * A chart's numbers (or a list of shows, weeks, minutes), as a table named by its title: the
 * first column names the row, and the empty text shows under the headings when there are no rows.
 *
 * On a phone the table scrolls sideways in its box, so the box takes the keyboard focus (WCAG
 * 2.1.1) and is named for screen readers by the table it holds.
 */
export function NumbersTable<Row>({
  title,
  columns,
  rows,
  rowKey,
  rowData,
  testId,
  empty,
}: {
  title: string;
  columns: readonly (DataColumn<Row> | false)[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** The row's data attributes, by which tests find it (`data-minute`). */
  rowData?: (row: Row) => Record<`data-${string}`, string | number>;
  testId?: string;
  /** Shown when there are no rows. */
  empty?: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (WCAG 2.1.1).
    <section className="studio-table-wrap" aria-label={title} tabIndex={0}>
      <DataTable
        className="studio-table analytics-numbers"
        caption={title}
        captionClassName="studio-visually-hidden"
        rowHeader
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        rowProps={rowData}
        testId={testId}
      />
      {empty && rows.length === 0 && <p className="studio-notice">{empty}</p>}
    </section>
  );
}

/**
 * A numbers table's revenue column, or none for a member who may not see revenue (the server
 * sends such a member no amounts either).
 */
export function revenueColumn<Row extends { revenue: readonly CurrencyAmount[] | null }>(
  visible: boolean,
  header: string,
  amounts: (amounts: readonly CurrencyAmount[]) => string,
): DataColumn<Row> | false {
  return visible && { header, cell: (row) => amounts(row.revenue ?? []) };
}
