import { overlayHostProductData } from '@vitrine/domain';
import type { EventProduct, HostProductData, ProductLookup } from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';

/**
 * How the player names its products to the host page and takes the host's data for them
 * (spec §3 "Host product data"). Zod-free: the player uses it in the initial bundle.
 */

/** The host's id of a product: the shop's external id, else the product's uid. */
export function hostProductId(product: EventProduct): string {
  return product.product.externalId || product.externalId || product.productUid;
}

/** The lookup the player sends in get_user_product_data(_list) and toggle_is_favorite. */
export function productLookup(product: EventProduct): ProductLookup {
  return {
    product_id: hostProductId(product),
    sku: product.product.sku || product.sku || null,
    url: product.product.url ?? product.url ?? null,
  };
}

/** The event product with the host's data laid over its product; unchanged without data. */
export function withHostData(
  product: EventProduct,
  data: HostProductData | null | undefined,
  currency: Currency,
): EventProduct {
  if (!data) return product;
  return { ...product, product: overlayHostProductData(product.product, data, currency) };
}

/** The event product a host message names by product id, or undefined when it names none of ours. */
export function findByHostId(
  products: readonly EventProduct[],
  productId: string | null,
): EventProduct | undefined {
  return productId === null ? undefined : products.find((product) => hostProductId(product) === productId);
}
