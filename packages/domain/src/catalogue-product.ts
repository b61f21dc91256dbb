// A product as the studio's catalogue writes it (the shape of the protocol's ProductInput), and
// the rules of its option/variant matrix that the editor and the CSV import share.

import type { PriceList } from './money.ts';

export interface CatalogueOptionValue {
  id: string;
  name: string;
  images: string[];
  styleUrl: string | null;
  minimumPrice: number | null;
}

export interface CatalogueOption {
  id: string;
  optionType: string;
  name: string;
  optionValues: CatalogueOptionValue[];
}

export interface CatalogueVariant {
  uid: string;
  name: string;
  sku: string;
  prices: PriceList;
  /** The price before the deal, per currency (shown as "was" when higher than the price). */
  compareAtPrices?: PriceList | undefined;
  stock: number | null;
  options: { optionId: string; optionValueId: string }[];
}

export interface CatalogueProduct {
  externalId: string;
  name: string;
  description: string;
  /** The description's formatting as allow-listed HTML (see the protocol's Product). */
  descriptionHtml?: string | null | undefined;
  sku: string;
  url: string | null;
  images: string[];
  prices: PriceList;
  compareAtPrices?: PriceList | undefined;
  stock: number | null;
  options: CatalogueOption[];
  variants: CatalogueVariant[];
}

/** The most options a product has (Shopify's limit, which import and export follow). */
export const MAX_PRODUCT_OPTIONS = 3;
/** The most variants of a product (the protocol's ProductInput limit). */
export const MAX_PRODUCT_VARIANTS = 500;

const OPTION_TYPES: Record<string, string> = {
  colour: 'color',
  color: 'color',
  farve: 'color',
  färg: 'color',
  farge: 'color',
  väri: 'color',
  kleur: 'color',
  kolor: 'color',
  farbe: 'color',
  couleur: 'color',
  size: 'size',
  størrelse: 'size',
  storlek: 'size',
  koko: 'size',
  maat: 'size',
  rozmiar: 'size',
  größe: 'size',
  talla: 'size',
  taille: 'size',
};

/** The option's kind from its name in any of our languages: "Colour"/"Farve" → color, else its slug. */
export function optionTypeOf(name: string): string {
  const key = name.trim().toLowerCase();
  return OPTION_TYPES[key] ?? (toSlug(key) || 'option');
}

/** Lowercase letters, digits and "-": "Blå Sweater 2" → "bla-sweater-2". */
export function toSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/gi, 'o')
    .replace(/æ/gi, 'ae')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
}

/** The name a variant is shown by: its option values in option order, "Sand / M". */
export function variantName(values: readonly string[]): string {
  return values.join(' / ');
}

/**
 * Every combination of the options' values, in option order (the first option varies slowest):
 * Size [S, M] × Colour [Red, Blue] → S/Red, S/Blue, M/Red, M/Blue. None for a product without options.
 */
export function optionCombinations<T>(options: readonly (readonly T[])[]): T[][] {
  if (options.length === 0) return [];
  return options.reduce<T[][]>(
    (combinations, values) =>
      combinations.flatMap((combination) => values.map((value) => [...combination, value])),
    [[]],
  );
}

/** A key for a variant's choice of option values, comparable across edits: "colour=sand|size=m". */
export function combinationKey(choices: readonly { optionId: string; optionValueId: string }[]): string {
  return choices.map((choice) => `${choice.optionId}=${choice.optionValueId}`).join('|');
}

/**
 * A variant product's own stock: the sum of its variants' (what carts move together with
 * them), or null when one of them is not stock-managed. A product without variants keeps its own.
 */
export function productStockOf(product: Pick<CatalogueProduct, 'stock' | 'variants'>): number | null {
  if (product.variants.length === 0) return product.stock;
  let total = 0;
  for (const variant of product.variants) {
    if (variant.stock === null) return null;
    total += variant.stock;
  }
  return total;
}

/** A new id not in `used`: `prefix`, else `prefix-2`, `prefix-3`…; it is added to `used`. */
export function freshId(prefix: string, used: Set<string>): string {
  const base = prefix || 'id';
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
  used.add(id);
  return id;
}
