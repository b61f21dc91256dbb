import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { INTERACTION_NAMESPACE } from '../../lib/i18n.ts';

/** A product to suggest, ready to show: the caller prices it (see `UpsellSuggestionsProps`). */
export interface UpsellSuggestion {
  uid: string;
  name: string;
  image: string | null;
  /** The price as the product list shows it, or null when prices are hidden or still loading. */
  price: string | null;
}

export interface UpsellSuggestionsProps {
  suggestions: readonly UpsellSuggestion[];
  onOpen(uid: string): void;
  onDismiss(): void;
}

/**
 * Upsell mode (spec §2 "Widget layout flags"): under the product just put in the cart, the show's
 * other products to add next. Loaded on demand: nobody sees it before a first add to the cart.
 */
export default function UpsellSuggestions({ suggestions, onOpen, onDismiss }: UpsellSuggestionsProps) {
  // The caller formats the prices (the price rules live in the first bundle; importing them here
  // would split shared modules out of it). Suspends until the on-demand parts' texts are in.
  const { t } = useTranslation([INTERACTION_NAMESPACE, 'translation'], { useSuspense: true });
  // Below a tall product the suggestions would start under the panel's fold: scroll just enough to
  // show them ("nearest" keeps the add button's "Added" in view whenever both fit).
  const sectionRef = useRef<HTMLElement>(null);
  useEffect(() => {
    sectionRef.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <section ref={sectionRef} className="upsell" aria-labelledby="upsell-title" data-testid="upsell">
      <div className="upsell__heading">
        <h3 id="upsell-title">{t('interaction.upsell.title')}</h3>
        <button type="button" className="link-button" onClick={onDismiss}>
          {t('interaction.upsell.dismiss')}
        </button>
      </div>
      <ul className="upsell__list">
        {suggestions.map((suggestion) => (
          <li key={suggestion.uid} data-product-uid={suggestion.uid}>
            <button type="button" className="upsell__product" onClick={() => onOpen(suggestion.uid)}>
              {suggestion.image ? (
                <img src={suggestion.image} alt="" />
              ) : (
                <span className="upsell__no-image" aria-hidden="true" />
              )}
              <span className="upsell__name">{suggestion.name}</span>
              {suggestion.price && <span className="upsell__price">{suggestion.price}</span>}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
