import { type PriceList, priceFor } from './money.ts';
import type { Currency } from './vocabulary.ts';

/** The option values a shopper has picked: option id → option value id. */
export type OptionSelection = Readonly<Record<string, string>>;

/** The fields of a variant (spec §3 "Host product data" variants) used to match a selection. */
export interface SelectableVariant {
  prices: PriceList;
  /** The price before the deal ("Variant Compare At Price"), per currency. */
  compareAtPrices?: PriceList | undefined;
  /** Units left; null means not stock-managed. */
  stock: number | null;
  options: readonly { optionId: string; optionValueId: string }[];
}

/** The fields of a product with options and variants (spec §3 "Host product data", "Product"). */
export interface SelectableProduct {
  prices: PriceList;
  compareAtPrices?: PriceList | undefined;
  stock?: number | null;
  options: readonly { id: string; optionValues: readonly { id: string }[] }[];
  variants: readonly SelectableVariant[];
}

/**
 * Picks an option value, or un-picks it when it is the one already picked (spec §4 "Picking an
 * option value toggles it"). Picking another value of the same option replaces the old one.
 * Returns a new selection.
 */
export function toggleOptionValue(
  selection: OptionSelection,
  optionId: string,
  optionValueId: string,
): OptionSelection {
  if (selection[optionId] === optionValueId) {
    const { [optionId]: _removed, ...rest } = selection;
    return rest;
  }
  return { ...selection, [optionId]: optionValueId };
}

/** The part of a selection that concerns the product's own options. */
function relevantChoices(product: SelectableProduct, selection: OptionSelection): [string, string][] {
  return product.options.flatMap((option) => {
    const value = selection[option.id];
    return value === undefined ? [] : [[option.id, value] as [string, string]];
  });
}

function variantHas(variant: SelectableVariant, optionId: string, valueId: string): boolean {
  return variant.options.some((choice) => choice.optionId === optionId && choice.optionValueId === valueId);
}

/**
 * The variant matching the selection (spec §4 "Once all chosen options match a variant"): only
 * when every option of the product has a value picked, the variant whose options are exactly the
 * picked values (selection keys for options the product does not have are ignored); else null.
 */
export function matchingVariant<P extends SelectableProduct>(
  product: P,
  selection: OptionSelection,
): P['variants'][number] | null {
  const choices = relevantChoices(product, selection);
  if (choices.length < product.options.length) return null;
  return (
    product.variants.find(
      (variant) =>
        new Set(variant.options.map((choice) => choice.optionId)).size === choices.length &&
        variant.options.length === choices.length &&
        choices.every(([optionId, valueId]) => variantHas(variant, optionId, valueId)),
    ) ?? null
  );
}

/**
 * The price to show (spec §4 "its price replaces the product price"): the matching variant's
 * price when the selection matches one and it has a price in `currency` or `storeCurrency`, else
 * the product's own price (see `priceFor`); null when neither has a price.
 */
export function displayPrice(
  product: SelectableProduct,
  selection: OptionSelection,
  currency: Currency,
  storeCurrency: Currency,
): { amount: number; currency: Currency } | null {
  const variant = matchingVariant(product, selection);
  const variantPrice = variant === null ? null : priceFor(variant.prices, currency, storeCurrency);
  return variantPrice ?? priceFor(product.prices, currency, storeCurrency);
}

/**
 * The "was" amount beside a price shown in `price.currency`: the compare-at price in that same
 * currency, only when it is higher than the price (a compare-at price equal or below is no deal
 * and is not shown); null otherwise.
 */
export function wasAmount(
  price: { amount: number; currency: Currency } | null,
  compareAtPrices: PriceList | undefined,
): number | null {
  if (!price || !compareAtPrices) return null;
  const before = compareAtPrices[price.currency];
  return before !== undefined && before > price.amount ? before : null;
}

/**
 * The price to show with its "was" price (`displayPrice`, plus the compare-at price of whatever
 * priced it: the matching variant, else the product), null when there is no price.
 */
export function displayPriceWithWas(
  product: SelectableProduct,
  selection: OptionSelection,
  currency: Currency,
  storeCurrency: Currency,
): { amount: number; currency: Currency; was: number | null } | null {
  const variant = matchingVariant(product, selection);
  const variantPrice = variant === null ? null : priceFor(variant.prices, currency, storeCurrency);
  if (variant && variantPrice)
    return { ...variantPrice, was: wasAmount(variantPrice, variant.compareAtPrices) };
  const price = priceFor(product.prices, currency, storeCurrency);
  return price ? { ...price, was: wasAmount(price, product.compareAtPrices) } : null;
}

/**
 * The "was" amount of a cart line (unit price `unitPrice` in `currency`, of `variantUid` or of the
 * product itself): the line's variant's compare-at price, or the product's when it has no
 * variant, only when higher than what the shopper pays per unit.
 */
export function lineWasAmount(
  product: Omit<SelectableProduct, 'variants'> & {
    variants: readonly (SelectableVariant & { uid: string })[];
  },
  variantUid: string | null,
  unitPrice: number,
  currency: Currency,
): number | null {
  const variant =
    variantUid === null ? null : product.variants.find((candidate) => candidate.uid === variantUid);
  if (variantUid !== null && !variant) return null;
  return wasAmount({ amount: unitPrice, currency }, (variant ?? product).compareAtPrices);
}

/**
 * The photo of what the shopper picked (spec §3 option values carry images): the first image of
 * a picked option value, options in the product's order; null when no picked value has one.
 * Picking White shows the white photo even before a size is picked.
 */
export function selectionImage(
  product: {
    options: readonly { id: string; optionValues: readonly { id: string; images?: readonly string[] }[] }[];
  },
  selection: OptionSelection,
): string | null {
  for (const option of product.options) {
    const picked = selection[option.id];
    if (picked === undefined) continue;
    const image = option.optionValues.find((value) => value.id === picked)?.images?.[0];
    if (image) return image;
  }
  return null;
}

/** Units left for the selection: the matching variant's stock, else the product's (null: not stock-managed). */
export function selectionStock(product: SelectableProduct, selection: OptionSelection): number | null {
  const variant = matchingVariant(product, selection);
  return variant === null ? (product.stock ?? null) : variant.stock;
}

/**
 * Whether picking `valueId` for `optionId` (on top of the other picked values) still leads to a
 * variant in stock: some variant with stock other than 0 has that value and every other picked
 * value. A product without variants has nothing to rule values out, so every value is available.
 */
export function isOptionValueAvailable(
  product: SelectableProduct,
  selection: OptionSelection,
  optionId: string,
  valueId: string,
): boolean {
  if (product.variants.length === 0) return true;
  const choices = relevantChoices(product, { ...selection, [optionId]: valueId });
  return product.variants.some(
    (variant) =>
      variant.stock !== 0 &&
      variantHas(variant, optionId, valueId) &&
      choices.every(([id, value]) => variantHas(variant, id, value)),
  );
}
