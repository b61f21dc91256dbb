import { type CodedProduct, productsMentioned } from '@vitrine/domain';
import type { CartFeedbackStatus, EventProduct } from '@vitrine/protocol';

/** A product a comment asks for, with the variant when the comment named a variant's code. */
export interface CommentAdd {
  product: EventProduct;
  variantUid: string | null;
}

/**
 * The show's products a viewer's comment mentions by code (spec §4 "Comments": typing a product
 * code in a comment adds that product to the cart). A variant's SKU picks that variant; the
 * product's own SKU adds the product as its button would without a choice, so a product with
 * variants answers "Variant missing" like the button's feedback does.
 */
export function productsInComment(text: string, products: readonly EventProduct[]): CommentAdd[] {
  const addsByKey = new Map<string, CommentAdd>();
  const coded: CodedProduct[] = [];
  for (const product of products) {
    addsByKey.set(product.uid, { product, variantUid: null });
    coded.push({ uid: product.uid, codes: [product.sku, product.product.sku] });
    for (const variant of product.product.variants) {
      const key = `${product.uid}/${variant.uid}`;
      addsByKey.set(key, { product, variantUid: variant.uid });
      coded.push({ uid: key, codes: [variant.sku] });
    }
  }
  const mentioned = productsMentioned(text, coded).flatMap((key) => addsByKey.get(key) ?? []);
  // A named variant wins over its product's own code: "NL-OB NL-OB-L" adds the large board once.
  const namedVariant = new Set(
    mentioned.filter((add) => add.variantUid !== null).map((add) => add.product.uid),
  );
  return mentioned.filter((add) => add.variantUid !== null || !namedVariant.has(add.product.uid));
}

/**
 * What adding to the host page's cart answers for a comment's product, by the reasons the
 * product's button is disabled there: the show expired, the host cannot sell it, or it has
 * variants and none was named. Otherwise the host takes it ('added').
 */
export function hostCartOutcome(
  { product, variantUid }: CommentAdd,
  { canPurchase, salable }: { canPurchase: boolean; salable: boolean },
): CartFeedbackStatus {
  if (!canPurchase) return 'expired';
  if (!salable) return 'soldOut';
  return product.product.variants.length > 0 && variantUid === null ? 'variantMissing' : 'added';
}

/** The name a comment's add shows: the product's, with the variant's when one was named. */
export function commentAddName({ product, variantUid }: CommentAdd): string {
  const variant = product.product.variants.find((candidate) => candidate.uid === variantUid);
  return variant ? `${product.product.name} · ${variant.name}` : product.product.name;
}
