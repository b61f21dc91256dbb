import type { EventProduct } from '@vitrine/protocol';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { logFailure } from '../../lib/debug.ts';
import type { CommentAddOutcome } from './comment-cart-notice.tsx';
import type { ProductCommerce } from './product-commerce.ts';

/** How long the feedback of a comment's adds stays over the video. */
const NOTICE_MS = 8000;

// Only a comment with a product code needs these, so they stay out of the player's first bundle.
const loadCodes = () => import('./comment-codes.ts');
const CommentCartNotice = lazy(() => import('./comment-cart-notice.tsx'));

/**
 * Spec §4 "Comments": typing a product code in a comment adds that product to the cart. The
 * viewer's posted comment goes through the same add as the product's button (so the same stock
 * rules, feedback states and tracking apply): the built-in cart, or the host page's cart. In link
 * and favourites modes, and while an embedded player waits for its host, codes add nothing.
 */
export function useCommentCart({
  commerce,
  products,
  canPurchase,
}: {
  commerce: ProductCommerce;
  products: readonly EventProduct[];
  canPurchase: boolean;
}): { onCommentPosted(text: string): void; notice: ReactNode } {
  const [outcomes, setOutcomes] = useState<CommentAddOutcome[]>([]);
  const latest = useRef({ commerce, products, canPurchase });
  latest.current = { commerce, products, canPurchase };

  const addMentioned = useCallback(async (text: string) => {
    const { commerce, products, canPurchase } = latest.current;
    if (commerce.cartMode !== 'cart' && commerce.cartMode !== 'hostCart') return;
    const { productsInComment, hostCartOutcome } = await loadCodes();
    const adds = productsInComment(text, products);
    const results: CommentAddOutcome[] = [];
    if (commerce.cartMode === 'cart' && commerce.cart) {
      // One after another: the first add may create the cart the next ones join.
      for (const add of adds) {
        results.push({ add, outcome: await commerce.cart.addProduct(add.product, add.variantUid) });
      }
    } else if (commerce.cartMode === 'hostCart') {
      // The host page keeps this cart; what the button would refuse is refused with its reason.
      for (const add of adds) {
        const outcome = hostCartOutcome(add, { canPurchase, salable: commerce.salable(add.product) });
        if (outcome === 'added') commerce.addToCart(add.product, add.variantUid);
        results.push({ add, outcome });
      }
    }
    if (results.length > 0) setOutcomes(results);
  }, []);
  const onCommentPosted = useCallback(
    (text: string) => {
      addMentioned(text).catch((error: unknown) => logFailure('adding a comment’s products failed', error));
    },
    [addMentioned],
  );

  useEffect(() => {
    if (outcomes.length === 0) return;
    const timer = setTimeout(() => setOutcomes([]), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [outcomes]);

  const notice =
    outcomes.length > 0 ? (
      <Suspense fallback={null}>
        <CommentCartNotice outcomes={outcomes} onDismiss={() => setOutcomes([])} />
      </Suspense>
    ) : null;
  return { onCommentPosted, notice };
}
