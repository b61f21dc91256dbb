import {
  minorUnitDigits,
  readShopifyProductCsv,
  SHOPIFY_PRODUCT_COLUMNS,
  type ShopifyColumn,
  shopifyDraftToProduct,
  shopifyRowsOfProduct,
} from '@vitrine/domain';
import { type ImportReport, type ImportRowError, ProductInput, type StudioProduct } from '@vitrine/protocol';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { z } from 'zod';
import { HttpError } from '../../http/errors.ts';
import { MAX_DESCRIPTION_HTML, safeDescriptionHtml } from './description-html.ts';
import { newProductUid, type StudioCatalogueService } from './studio-catalogue-service.ts';

/** A file's description with formatting worth keeping (lists, bold, italic, links). */
const FORMATTED = /<(ul|ol|li|strong|b|em|i|a)\b/i;

/** What applying an import writes: each valid product with its uid (new or the one it updates). */
export interface ImportPlan {
  report: ImportReport;
  products: { uid: string; input: ProductInput; archived: boolean; action: 'create' | 'update' }[];
}

/** The cells of a CSV file: UTF-8 (a BOM is fine), comma- or semicolon-separated. */
export function parseCsvTable(bytes: Uint8Array): string[][] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(
      400,
      'invalid_request',
      'The file is not UTF-8 text: save it as "CSV UTF-8" and try again.',
    );
  }
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
  // Spreadsheets set to a decimal comma save CSV with semicolons.
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  try {
    return parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new HttpError(
      400,
      'invalid_request',
      `The file is not a readable CSV${line ? ` (near line ${line})` : ''}: ${(error as Error).message.replace(/^Invalid[^:]*: /, '')}`,
    );
  }
}

/** The column a ProductInput issue is about, so the report can name it. */
function columnOfIssue(path: readonly PropertyKey[]): ShopifyColumn | null {
  const [field, , sub] = path;
  if (field === 'name') return 'Title';
  if (field === 'description') return 'Body (HTML)';
  if (field === 'images') return 'Image Src';
  if (field === 'sku') return 'Variant SKU';
  if (field === 'prices') return 'Variant Price';
  if (field === 'variants') return sub === 'prices' ? 'Variant Price' : sub === 'sku' ? 'Variant SKU' : null;
  if (field === 'options') return 'Option1 Name';
  return null;
}

/**
 * The dry run of a Shopify product CSV for store `pageUid` whose prices are in `currency`: what
 * would be created and updated (by handle ↔ external id) and every row's errors, with what to write.
 */
export async function planProductImport(
  bytes: Uint8Array,
  pageUid: string,
  currency: string,
  studio: StudioCatalogueService,
): Promise<ImportPlan> {
  const table = parseCsvTable(bytes);
  const reading = readShopifyProductCsv(table, minorUnitDigits(currency));
  const errors: ImportRowError[] = [...reading.errors];
  const warnings: ImportRowError[] = [...reading.warnings];
  const existing = await studio.productsByHandles(
    pageUid,
    reading.products.map((draft) => draft.handle),
  );
  const products: ImportPlan['products'] = [];
  const report: ImportReport['products'] = reading.products.map((draft) => {
    const known = existing.get(draft.handle) ?? null;
    const summary = {
      handle: draft.handle,
      name: draft.name,
      variantCount: draft.variants.length,
      productUid: known?.uid ?? null,
      firstRow: draft.firstRow,
    };
    if (!draft.valid) return { ...summary, action: 'invalid' as const };
    const product = shopifyDraftToProduct(draft, currency, known && withoutStudioFields(known));
    const descriptionHtml = safeDescriptionHtml(product.descriptionHtml);
    if (product.descriptionHtml && !descriptionHtml && FORMATTED.test(product.descriptionHtml))
      warnings.push({
        row: draft.firstRow,
        column: 'Body (HTML)',
        message: `keeps its text but not its formatting: formatted, it is longer than ${MAX_DESCRIPTION_HTML.toLocaleString('en')} characters.`,
      });
    const parsed = ProductInput.safeParse({ ...product, descriptionHtml });
    if (!parsed.success) {
      for (const issue of (parsed.error as z.ZodError).issues.slice(0, 5))
        errors.push({ row: draft.firstRow, column: columnOfIssue(issue.path), message: issue.message });
      return { ...summary, action: 'invalid' as const };
    }
    const action = known ? ('update' as const) : ('create' as const);
    products.push({
      uid: known?.uid ?? newProductUid(),
      input: parsed.data,
      archived: draft.archived,
      action,
    });
    return { ...summary, action };
  });
  errors.sort((a, b) => a.row - b.row);
  const count = (action: string) => report.filter((product) => product.action === action).length;
  return {
    report: {
      rowCount: reading.rowCount,
      products: report,
      errors,
      warnings: warnings.sort((a, b) => a.row - b.row),
      counts: { create: count('create'), update: count('update'), invalid: count('invalid') },
      currency,
    },
    products,
  };
}

function withoutStudioFields(product: StudioProduct) {
  const { uid: _uid, pageUid: _pageUid, archived: _archived, updatedAt: _updatedAt, ...input } = product;
  return input;
}

/** The store's products as a Shopify product CSV, prices in `currency`. */
export function productCsv(products: readonly StudioProduct[], currency: string): string {
  const rows = products.flatMap((product) =>
    shopifyRowsOfProduct(product, currency, minorUnitDigits(currency)),
  );
  return stringify([[...SHOPIFY_PRODUCT_COLUMNS], ...rows]);
}
