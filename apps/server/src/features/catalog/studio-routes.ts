import type { Currency } from '@vitrine/protocol/vocabulary';
import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { HttpError } from '../../http/errors.ts';
import { registerCall } from '../../http/register-call.ts';
import type { MediaService } from '../media/media-service.ts';
import { copyImportedImages } from './image-copy.ts';
import { planProductImport, productCsv } from './product-import.ts';
import type { StudioCatalogueService } from './studio-catalogue-service.ts';

/** The studio's catalogue calls (protocol studio/catalogue-calls.ts): products, images, CSV. */
export function registerStudioCatalogueRoutes(
  app: FastifyInstance,
  deps: {
    /** The export file's date. */
    now: () => number;
    studio: StudioCatalogueService;
    media: MediaService;
    staffGate: StaffGate;
    /** The store's own currency: a CSV's prices are in it. */
    storeCurrency: (pageUid: string) => Promise<Currency>;
    /** The currencies the store sells in, its own first: the editor offers a price in each. */
    storeCurrencies: (pageUid: string) => Promise<Currency[]>;
    /**
     * Copies a remote image into the store's media and answers its URL (issue 33 §8); absent,
     * imported images stay linked where the file says.
     */
    copyImage?: (pageUid: string, url: string) => Promise<string>;
    /** Tells the shows presenting these products that they changed (the events feature). */
    republishProducts: (productUids: readonly string[]) => Promise<void>;
  },
): void {
  const { studio, media, staffGate, republishProducts } = deps;
  registerCall(
    app,
    'getCatalogueInfo',
    async (_body, { params }) => {
      const currency = await deps.storeCurrency(params.pageUid);
      return { currency, currencies: await deps.storeCurrencies(params.pageUid) };
    },
    { staffGate },
  );
  registerCall(app, 'listStudioProducts', (_body, { params, query }) => studio.list(params.pageUid, query), {
    staffGate,
  });
  registerCall(
    app,
    'getStudioProduct',
    (_body, { params }) => studio.studioProduct(params.pageUid, params.productUid),
    { staffGate },
  );
  registerCall(app, 'createStudioProduct', (input, { params }) => studio.create(params.pageUid, input), {
    staffGate,
  });
  registerCall(
    app,
    'updateStudioProduct',
    async (input, { params }) => {
      const product = await studio.update(params.pageUid, params.productUid, input);
      // Viewers of shows presenting it see the new data.
      await republishProducts([product.uid]);
      return product;
    },
    { staffGate },
  );
  registerCall(
    app,
    'duplicateStudioProduct',
    (_body, { params }) => studio.duplicate(params.pageUid, params.productUid),
    { staffGate },
  );
  registerCall(
    app,
    'setStudioProductArchived',
    // Shows already presenting an archived product keep it as it is: nothing to republish.
    ({ archived }, { params }) => studio.setArchived(params.pageUid, params.productUid, archived),
    { staffGate },
  );
  registerCall(
    app,
    'uploadProductImage',
    (bytes, { params }) => media.storeImage(params.pageUid, bytes, 'product'),
    { staffGate },
  );
  registerCall(
    app,
    'previewProductImport',
    async (bytes, { params }) => {
      const currency = await deps.storeCurrency(params.pageUid);
      return (await planProductImport(bytes, params.pageUid, currency, studio)).report;
    },
    { staffGate },
  );
  registerCall(
    app,
    'importProducts',
    async (bytes, { params, query }) => {
      const currency = await deps.storeCurrency(params.pageUid);
      const plan = await planProductImport(bytes, params.pageUid, currency, studio);
      const { report } = plan;
      if (report.errors.length > 0 && !query.validOnly) {
        const rows = new Set(report.errors.map((error) => error.row)).size;
        throw new HttpError(
          422,
          'import_has_errors',
          `${rows} ${rows === 1 ? 'row has' : 'rows have'} errors, so nothing was imported: fix them, or confirm importing the ${report.counts.create + report.counts.update} valid products only.`,
          { report },
        );
      }
      const copyImage = deps.copyImage;
      if (copyImage) {
        const firstRow = new Map(report.products.map((product) => [product.handle, product.firstRow]));
        const warnings = await copyImportedImages(
          plan.products.map((product) => ({
            input: product.input,
            firstRow: firstRow.get(product.input.externalId) ?? 0,
          })),
          (url) => copyImage(params.pageUid, url),
        );
        report.warnings = [...report.warnings, ...warnings].sort((a, b) => a.row - b.row);
      }
      await studio.importProducts(params.pageUid, plan.products);
      // Shows presenting an updated product tell their viewers, once for the whole file.
      await republishProducts(
        plan.products.filter((product) => product.action === 'update').map((product) => product.uid),
      );
      return {
        report,
        created: report.counts.create,
        updated: report.counts.update,
        skipped: report.counts.invalid,
      };
    },
    { staffGate },
  );
  registerCall(
    app,
    'exportProducts',
    async (_body, { params }) => {
      const currency = await deps.storeCurrency(params.pageUid);
      const csv = productCsv(await studio.allProducts(params.pageUid), currency);
      const date = new Date(deps.now()).toISOString().slice(0, 10);
      return { filename: `products-${params.pageUid}-${date}.csv`, csv };
    },
    { staffGate },
  );
}
