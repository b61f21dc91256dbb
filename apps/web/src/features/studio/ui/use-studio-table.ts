import { type ColumnDef, getCoreRowModel, type Table, useReactTable } from '@tanstack/react-table';

/** The one empty list every table shows while its first page loads or after it failed. */
const NO_ROWS: never[] = [];

/**
 * A studio list's table (TanStack): rows as the server answered them, or none yet.
 *
 * TanStack resets the page index whenever `data` is a different array, and the reset re-renders.
 * `rows ?? []` made a new array on every render while the first page was loading or had failed,
 * so the page re-rendered in a loop that held a core until the answer came (measured: 2.95 s of
 * script in 3 s), enough to freeze the studio on a busy machine. Every table takes its empty list
 * from here.
 */
export function useStudioTable<Row>(options: {
  rows: Row[] | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: TanStack's own column type (a column's value type varies).
  columns: ColumnDef<Row, any>[];
  rowId: (row: Row) => string;
}): Table<Row> {
  return useReactTable({
    data: options.rows ?? (NO_ROWS as Row[]),
    columns: options.columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: options.rowId,
  });
}
