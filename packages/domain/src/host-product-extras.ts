import { isWebUrl, majorToMinorUnits } from './host-product-data.ts';
import type { Currency } from './vocabulary.ts';

/**
 * What the host's product data says beyond name and price (spec §3 "Host product data"): the
 * reseller's prices and the look of each option value. The player shows them beside the product.
 */

/** The host fields this rule reads (see `HostProductData` in the protocol); money in major units. */
export interface HostProductExtrasInput {
  suggestedRetailPrice?: number | null | undefined;
  b2bRetailPrice?: number | null | undefined;
  /** The reseller's markup on the B2B price, in percent (35 means retail = B2B × 1.35). */
  retail_markup?: number | null | undefined;
  options?:
    | readonly {
        id: string;
        optionValues: readonly {
          id: string;
          images?: readonly string[] | undefined;
          styleUrl?: string | null | undefined;
          minimumPrice?: number | null | undefined;
        }[];
      }[]
    | undefined;
}

/** One option value's extras: a swatch picture, a page about the style, the lowest price (minor units). */
export interface OptionValueExtras {
  optionId: string;
  optionValueId: string;
  swatch: string | null;
  styleUrl: string | null;
  minimumPrice: number | null;
}

/** The extras in the store's currency (minor units); null fields are not known. */
export interface HostProductExtras {
  suggestedRetailPrice: number | null;
  b2bRetailPrice: number | null;
  retailMarkupPercent: number | null;
  optionValues: OptionValueExtras[];
}

const finite = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/**
 * The host data's extras, or null when it carries none. Pictures and style pages are used only at
 * absolute http(s) addresses (see `isWebUrl`); option values without any extra are left out.
 */
export function hostProductExtras(
  data: HostProductExtrasInput,
  currency: Currency,
): HostProductExtras | null {
  const money = (amount: number | null | undefined) =>
    finite(amount) && amount >= 0 ? majorToMinorUnits(amount, currency) : null;
  const optionValues = (data.options ?? []).flatMap((option) =>
    option.optionValues.flatMap((value): OptionValueExtras[] => {
      const swatch = (value.images ?? []).find(isWebUrl) ?? null;
      const styleUrl = value.styleUrl && isWebUrl(value.styleUrl) ? value.styleUrl : null;
      const minimumPrice = money(value.minimumPrice);
      if (swatch === null && styleUrl === null && minimumPrice === null) return [];
      return [{ optionId: option.id, optionValueId: value.id, swatch, styleUrl, minimumPrice }];
    }),
  );
  const extras: HostProductExtras = {
    suggestedRetailPrice: money(data.suggestedRetailPrice),
    b2bRetailPrice: money(data.b2bRetailPrice),
    retailMarkupPercent: finite(data.retail_markup) ? data.retail_markup : null,
    optionValues,
  };
  const any =
    extras.suggestedRetailPrice !== null ||
    extras.b2bRetailPrice !== null ||
    extras.retailMarkupPercent !== null ||
    optionValues.length > 0;
  return any ? extras : null;
}
