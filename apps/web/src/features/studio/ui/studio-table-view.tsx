import { flexRender, type Table } from '@tanstack/react-table';

/** A column whose `meta` says `number: true` holds amounts or counts: right-aligned. */
const numberClass = (meta: unknown) =>
  (meta as { number?: boolean } | undefined)?.number === true ? 'studio-table__number' : undefined;

/**
 * The markup of a TanStack studio list (`useStudioTable`: orders, products): the headings and a
 * row per item, right-aligned in the columns whose `meta` is `{ number: true }`.
 */
export function StudioTableView<Row>({
  table,
  className = 'studio-table',
  caption,
  busy,
}: {
  table: Table<Row>;
  className?: string;
  /** The table's name for screen readers, in a visually hidden `<caption>`. */
  caption?: string;
  busy?: boolean;
}) {
  return (
    <table className={className} aria-busy={busy}>
      {caption !== undefined && <caption className="studio-visually-hidden">{caption}</caption>}
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => (
              <th key={header.id} scope="col" className={numberClass(header.column.columnDef.meta)}>
                {flexRender(header.column.columnDef.header, header.getContext())}
              </th>
            ))}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => (
          <tr key={row.id}>
            {row.getVisibleCells().map((cell) => (
              <td key={cell.id} className={numberClass(cell.column.columnDef.meta)}>
                {flexRender(cell.column.columnDef.cell, cell.getContext())}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
