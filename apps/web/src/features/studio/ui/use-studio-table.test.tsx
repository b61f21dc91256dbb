// @vitest-environment happy-dom
import type { ColumnDef } from '@tanstack/react-table';
import { act } from 'preact/test-utils';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { mountEachTest } from '../../../test-support/mount-each-test.ts';
import { useStudioTable } from './use-studio-table.ts';

interface Row {
  id: string;
}
const columns: ColumnDef<Row>[] = [{ accessorKey: 'id', header: 'Id' }];

let renders = 0;
let rerender: () => void = () => {};

/** A list page whose first answer has not come: no rows, and something else re-renders it. */
function LoadingList({ rows }: { rows: Row[] | undefined }) {
  renders++;
  const [, setTick] = useState(0);
  rerender = () => setTick((tick) => tick + 1);
  const table = useStudioTable({ rows, columns, rowId: (row) => row.id });
  return <p>{table.getRowModel().rows.length} rows</p>;
}

const mounted = mountEachTest();
beforeEach(() => {
  renders = 0;
});

/** Lets TanStack's queued state changes (microtasks) and React's renders run out. */
async function settle() {
  for (let round = 0; round < 20; round++) await act(async () => await Promise.resolve());
}

describe('useStudioTable', () => {
  it('renders a list without rows a bounded number of times when the page re-renders while loading', async () => {
    await act(async () => mounted.root.render(<LoadingList rows={undefined} />));
    await settle();
    act(() => rerender());
    act(() => rerender());
    await settle();
    expect(mounted.container.textContent).toBe('0 rows');
    // Mount, two re-renders and at most one page-index reset each: a loop would reach the rounds' limit.
    expect(renders).toBeLessThanOrEqual(6);
  });

  it('shows the rows once they come', async () => {
    await act(async () => mounted.root.render(<LoadingList rows={undefined} />));
    await act(async () => mounted.root.render(<LoadingList rows={[{ id: 'a' }, { id: 'b' }]} />));
    await settle();
    expect(mounted.container.textContent).toBe('2 rows');
  });
});
