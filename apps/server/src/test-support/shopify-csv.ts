import { SHOPIFY_PRODUCT_COLUMNS } from '@vitrine/domain';
import { PageInput } from '@vitrine/protocol';
import type { App } from '../app.ts';
import type { Database } from '../db/database.ts';
import { signInStaff } from './studio-staff.ts';

/** A CSV with Shopify's header from rows of { column: value }, cells quoted where they must be. */
export function shopifyCsv(...rows: Record<string, string>[]): string {
  const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  return [SHOPIFY_PRODUCT_COLUMNS, ...rows.map((row) => SHOPIFY_PRODUCT_COLUMNS.map((c) => row[c] ?? ''))]
    .map((cells) => cells.map(quote).join(','))
    .join('\n');
}

/** `csv` posted as the studio uploads it, to `/staff/stores/<path>` (`store-a/product-import`…). */
export function uploadStudioCsv(
  app: Pick<App, 'server'>,
  path: string,
  csv: string,
  headers: { authorization: string },
) {
  return app.server.inject({
    method: 'POST',
    url: `/staff/stores/${path}`,
    headers: { ...headers, 'content-type': 'text/csv; charset=utf-8' },
    payload: Buffer.from(csv),
  });
}

/** A store of the catalogue tests, made through the stores service; answers its owner's headers. */
export async function openCatalogueStore(
  app: App & { db: Database },
  pageUid: string,
  page: { name: string; language: string; currency: string },
): Promise<{ authorization: string }> {
  await app.services.stores.upsertPage(pageUid, PageInput.parse(page));
  return (await signInStaff(app, pageUid, 'owner')).headers;
}
