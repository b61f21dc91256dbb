import type { HTMLAttributes, Key, ReactNode } from 'react';

/** One column of a `DataTable`: its heading and what a row shows in it. */
export interface DataColumn<Row> {
  /** The `<th scope="col">`'s content (a visually hidden label for an actions column). */
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Amounts and counts: right-aligned (`studio-table__number`), heading included. */
  number?: boolean;
}

/**
 * A studio table of rows under declared columns (order lines, staff, import reports, analytics
 * numbers): the heading row, one row per item and, as children, an optional `<tfoot>`. The caller
 * keeps its own scroll box around it. TanStack-driven lists (orders, products) have `StudioTableView`.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  rowProps,
  rowHeader = false,
  caption,
  captionClassName = 'studio-visually-hidden',
  className = 'studio-table',
  testId,
  children,
}: {
  columns: readonly (DataColumn<Row> | false)[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
  /** Attributes of a row's `<tr>` (its data attributes, `aria-selected`). */
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | number>;
  /** The first column names the row: `<th scope="row">` instead of `<td>`. */
  rowHeader?: boolean;
  /** The table's name for screen readers, in a visually hidden `<caption>`. */
  caption?: string;
  captionClassName?: string;
  className?: string;
  testId?: string;
  /** A `<tfoot>` under the rows. */
  children?: ReactNode;
}) {
  const shown = columns.filter((column): column is DataColumn<Row> => column !== false);
  const numberClass = (column: DataColumn<Row>) => (column.number ? 'studio-table__number' : undefined);
  return (
    <table className={className} data-testid={testId}>
      {caption !== undefined && <caption className={captionClassName}>{caption}</caption>}
      <thead>
        <tr>
          {shown.map((column, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for the table's life.
            <th key={index} scope="col" className={numberClass(column)}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowProps?.(row)}>
            {shown.map((column, index) =>
              rowHeader && index === 0 ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for the table's life.
                <th key={index} scope="row" className={numberClass(column)}>
                  {column.cell(row)}
                </th>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for the table's life.
                <td key={index} className={numberClass(column)}>
                  {column.cell(row)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
      {children}
    </table>
  );
}
