import type { ImportRowError, ProductInput } from '@vitrine/protocol';

/** Images fetched at once: a file of many products does not open hundreds of connections. */
const CONCURRENT_FETCHES = 4;

const isRemote = (url: string) => /^https?:\/\//i.test(url);

/**
 * Copies the remote images of imported products into the store's media (`copy` answers the
 * stored URL), so the shop does not hot-link a retailer's CDN that may change or vanish. The
 * products are changed in place to point at the copies; an image that cannot be copied stays
 * linked as it was and is a warning on the first row of the product naming it, never a failure.
 */
export async function copyImportedImages(
  products: readonly { input: ProductInput; firstRow: number }[],
  copy: (url: string) => Promise<string>,
): Promise<ImportRowError[]> {
  const rowOf = new Map<string, number>();
  for (const { input, firstRow } of products)
    for (const url of [
      ...input.images,
      ...input.options.flatMap((o) => o.optionValues.flatMap((v) => v.images)),
    ])
      if (isRemote(url) && !rowOf.has(url)) rowOf.set(url, firstRow);
  const urls = [...rowOf.keys()];
  const copied = new Map<string, string>();
  const warnings: ImportRowError[] = [];
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++] as string;
      try {
        copied.set(url, await copy(url));
      } catch (error) {
        warnings.push({
          row: rowOf.get(url) ?? 0,
          column: 'Image Src',
          message: `"${url.slice(0, 100)}" ${(error as Error).message.replace(/\.$/, '')}: it stays linked from its site instead of copied.`,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_FETCHES, urls.length) }, worker));
  const swap = (url: string) => copied.get(url) ?? url;
  for (const { input } of products) {
    input.images = input.images.map(swap);
    for (const option of input.options)
      for (const value of option.optionValues) value.images = value.images.map(swap);
  }
  return warnings.sort((a, b) => a.row - b.row);
}
