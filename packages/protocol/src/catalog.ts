import { z } from 'zod';
import { MediaUrl, PriceList, StockCount, Uid } from './common.ts';

export const OptionValue = z.object({
  id: Uid,
  name: z.string().min(1).max(100),
  images: z.array(MediaUrl).max(20).default([]),
  styleUrl: MediaUrl.nullable().default(null),
  minimumPrice: z.number().int().nonnegative().nullable().default(null),
});

/** A product option such as colour or size, with the values a shopper picks from. */
export const ProductOption = z.object({
  id: Uid,
  optionType: z.string().min(1).max(50),
  name: z.string().min(1).max(100),
  optionValues: z.array(OptionValue).min(1).max(100),
});
export type ProductOption = z.infer<typeof ProductOption>;

export const Variant = z.object({
  uid: Uid,
  name: z.string().min(1).max(200),
  sku: z.string().max(100).default(''),
  prices: PriceList,
  /**
   * The price before the deal (a Shopify CSV's "Variant Compare At Price"), per currency: shown
   * struck through as "was" when higher than the price. Not in spec §3's field list; an extra of ours.
   */
  compareAtPrices: PriceList.optional(),
  /** Units left; null means not stock-managed. */
  stock: StockCount.nullable().default(null),
  options: z.array(z.object({ optionId: Uid, optionValueId: Uid })).max(20),
});
export type Variant = z.infer<typeof Variant>;

/** A shop-side product (spec §3 "Product") with its options and variants. */
export const Product = z.object({
  uid: Uid,
  pageUid: Uid,
  externalId: z.string().max(200),
  name: z.string().min(1, 'must not be empty').max(300, 'must be at most 300 characters'),
  description: z.string().max(10_000),
  /**
   * The description's formatting (paragraphs, lists, bold, italic, http(s) links) as HTML the
   * server has passed through an allow-list; `description` holds the same as plain text. Absent
   * when there is no formatting. Not in spec §3's field list; an extra of ours.
   */
  descriptionHtml: z.string().max(20_000).nullable().optional(),
  sku: z.string().max(100),
  url: MediaUrl.nullable(),
  images: z.array(MediaUrl).max(20),
  prices: PriceList,
  /** A product without variants' "was" price (see Variant.compareAtPrices). */
  compareAtPrices: PriceList.optional(),
  stock: StockCount.nullable(),
  options: z.array(ProductOption),
  variants: z.array(Variant),
});
export type Product = z.infer<typeof Product>;

export const ProductInput = Product.omit({ uid: true, pageUid: true })
  .extend({
    externalId: z.string().max(200).default(''),
    description: z.string().max(10_000).default(''),
    sku: z.string().max(100).default(''),
    url: MediaUrl.nullable().default(null),
    images: z.array(MediaUrl).max(20).default([]),
    stock: StockCount.nullable().default(null),
    options: z.array(ProductOption).max(10).default([]),
    variants: z.array(Variant).max(500).default([]),
  })
  .strict()
  .superRefine((product, ctx) => {
    const reportDuplicates = (ids: string[], path: (string | number)[], what: string) => {
      const seen = new Set<string>();
      for (const id of ids) {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path, message: `duplicate ${what} "${id}"` });
        seen.add(id);
      }
    };
    reportDuplicates(
      product.variants.map((variant) => variant.uid),
      ['variants'],
      'variant uid',
    );
    reportDuplicates(
      product.options.map((option) => option.id),
      ['options'],
      'option id',
    );
    product.options.forEach((option, index) => {
      reportDuplicates(
        option.optionValues.map((value) => value.id),
        ['options', index, 'optionValues'],
        'option value id',
      );
    });
    const values = new Map(product.options.map((o) => [o.id, new Set(o.optionValues.map((v) => v.id))]));
    product.variants.forEach((variant, index) => {
      for (const choice of variant.options) {
        if (!values.get(choice.optionId)?.has(choice.optionValueId)) {
          ctx.addIssue({
            code: 'custom',
            path: ['variants', index, 'options'],
            message: `unknown option value ${choice.optionId}/${choice.optionValueId}`,
          });
        }
      }
    });
  });
export type ProductInput = z.infer<typeof ProductInput>;
