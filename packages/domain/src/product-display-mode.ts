/** How a product's price area is shown (spec §4 "Product display mode"). */
export type ProductDisplayMode = 'hidden' | 'loading' | 'userPrice' | 'defaultPrices';

export interface ProductDisplayInputs {
  /** A host product-data request for this product is queued or pending (spec §4 "Host messaging"). */
  hostDataPending: boolean;
  /** The widget already holds host product data, for this or any other product. */
  hostDataLoaded: boolean;
  /** The widget gets product data from the host page (on-site SDK); false means it never will. */
  usesHostData: boolean;
  /** The loaded host data for this product carries a price for the current user. */
  userPriceKnown: boolean;
}

/**
 * The display mode of a product (spec §4 "Product display mode"). Without host data the default
 * prices show. While host data is pending: hidden when some host data is already loaded (a newly
 * added or re-requested product appears once its data arrives), loading when none is (first load,
 * or after a user change cleared the cache). Once loaded: the user's price when the host gave one,
 * else the default prices.
 */
export function productDisplayMode(inputs: ProductDisplayInputs): ProductDisplayMode {
  if (!inputs.usesHostData) return 'defaultPrices';
  if (inputs.hostDataPending) return inputs.hostDataLoaded ? 'hidden' : 'loading';
  return inputs.userPriceKnown ? 'userPrice' : 'defaultPrices';
}
