/**
 * Spec §4 "Comments": typing a product code in a comment adds that product to the cart. A code
 * is a product's SKU (or another code the caller supplies), matched case-insensitively as a
 * whole word: "#JKT-001", "jkt-001!" match JKT-001; "XJKT-0011" does not. The player runs this
 * on the viewer's own comment and sends each match through its normal add-to-cart path (which
 * knows the context and the host page's capabilities).
 */
export interface CodedProduct {
  uid: string;
  /** Product codes; empty or missing ones never match. */
  codes: ReadonlyArray<string | null | undefined>;
}

/** Characters that may belong to a code; anything else separates words. */
const CODE_CHAR = /[\p{L}\p{N}_-]/u;

function words(text: string): Set<string> {
  const found = new Set<string>();
  let current = '';
  for (const char of text.toLocaleLowerCase('en')) {
    if (CODE_CHAR.test(char)) current += char;
    else {
      if (current) found.add(current.replace(/^-+|-+$/g, ''));
      current = '';
    }
  }
  if (current) found.add(current.replace(/^-+|-+$/g, ''));
  return found;
}

/** The uids of the products whose code the text mentions, each once, in the products' order. */
export function productsMentioned(text: string, products: readonly CodedProduct[]): string[] {
  const mentioned = words(text);
  return products
    .filter((product) =>
      product.codes.some((code) => {
        const normal = (code ?? '').trim().toLocaleLowerCase('en');
        return normal.length >= 2 && mentioned.has(normal);
      }),
    )
    .map((product) => product.uid);
}
