import type { Currency } from '@vitrine/domain';
import { displayPrice, matchingVariant, stockSignal, toggleOptionValue } from '@vitrine/domain';
import type { EventProduct, Product } from '@vitrine/protocol';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../lib/use-locale.ts';
import { type OptionSelection, VariantPicker } from './variant-picker.tsx';

export interface ProductPanelProps {
  products: readonly EventProduct[];
  activeUid: string | null;
  detailsUid: string | null;
  storeCurrency: Currency;
  hidePrices: boolean;
  canPurchase: boolean;
  newTab: boolean;
  onOpen(uid: string): void;
  onClose(): void;
  onJumpToCue(product: EventProduct): void;
  onTrack(
    name:
      | 'catalog.opened-product-url'
      | 'catalog.switched-product-image'
      | 'catalog.scrolled-to-playing-product',
    product: EventProduct,
  ): void;
  hasCue(product: EventProduct): boolean;
}

/** The show's products in cue order, the one on screen marked; or one product's details. */
export function ProductPanel(props: ProductPanelProps) {
  const { t } = useTranslation();
  const details = props.products.find((product) => product.uid === props.detailsUid);
  if (details) return <ProductDetails {...props} product={details} />;
  if (props.products.length === 0) return <p className="panel-empty">{t('player.noProducts')}</p>;
  return <ProductList {...props} />;
}

function ProductList(props: ProductPanelProps) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLUListElement>(null);
  const [activeOutOfView, setActiveOutOfView] = useState(false);
  const active = props.products.find((product) => product.uid === props.activeUid);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the active element is looked up in the DOM when activeUid changes
  useEffect(() => {
    const element = listRef.current?.querySelector<HTMLElement>('[data-active="true"]');
    if (!element || typeof IntersectionObserver === 'undefined') {
      setActiveOutOfView(false);
      return;
    }
    const observer = new IntersectionObserver(([entry]) => setActiveOutOfView(!entry?.isIntersecting), {
      threshold: 0.6,
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [props.activeUid]);

  const scrollToActive = () => {
    listRef.current
      ?.querySelector('[data-active="true"]')
      ?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
    if (active) props.onTrack('catalog.scrolled-to-playing-product', active);
  };

  return (
    <div className="product-list-wrap">
      {active && activeOutOfView && (
        <button type="button" className="now-showing-pill" onClick={scrollToActive}>
          {t('player.nowShowingName', { name: active.product.name })}
        </button>
      )}
      <ul className="product-list" ref={listRef}>
        {props.products.map((product) => (
          <li key={product.uid} data-product-uid={product.uid} data-active={product.uid === props.activeUid}>
            <ProductCard {...props} product={product} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function usePrice(product: Product, selection: OptionSelection, storeCurrency: Currency) {
  const format = useLocale();
  const price = displayPrice(product, selection, format.currency, storeCurrency);
  return price ? format.money(price.amount, price.currency) : null;
}

function StockBadge({ stock }: { stock: number | null }) {
  const { t } = useTranslation();
  const signal = stockSignal(stock);
  if (!signal) return null;
  return <span className={`stock-badge stock-badge--${signal}`}>{t(`player.stock.${signal}`)}</span>;
}

/** Stock of what the shopper would buy: the chosen variant, or the product when it has none. */
function stockOf(product: Product, selection: OptionSelection): number | null {
  const variant = matchingVariant(product, selection);
  if (variant) return variant.stock;
  if (product.variants.length === 0) return product.stock;
  // All variants sold out means the product is.
  return product.variants.every((candidate) => candidate.stock === 0) ? 0 : null;
}

function ProductCard({
  product,
  activeUid,
  storeCurrency,
  hidePrices,
  onOpen,
}: ProductPanelProps & { product: EventProduct }) {
  const { t } = useTranslation();
  const price = usePrice(product.product, {}, storeCurrency);
  const image = product.product.images[0];
  return (
    <button type="button" className="product-card" onClick={() => onOpen(product.uid)}>
      {image ? <img src={image} alt="" loading="lazy" /> : <span className="product-card__no-image" />}
      <span className="product-card__text">
        {product.uid === activeUid && <span className="product-card__now">{t('player.nowShowing')}</span>}
        <span className="product-card__name">{product.product.name}</span>
        {!hidePrices && price && <span className="product-card__price">{price}</span>}
        <StockBadge stock={stockOf(product.product, {})} />
      </span>
    </button>
  );
}

function ProductDetails(props: ProductPanelProps & { product: EventProduct }) {
  const { product, storeCurrency, hidePrices, canPurchase, newTab, onClose, onJumpToCue, onTrack, hasCue } =
    props;
  const { t } = useTranslation();
  const [selection, setSelection] = useState<OptionSelection>({});
  const [imageIndex, setImageIndex] = useState(0);
  const price = usePrice(product.product, selection, storeCurrency);
  const images = product.product.images;
  const variantChosen =
    product.product.variants.length === 0 || matchingVariant(product.product, selection) !== null;

  return (
    <article className="product-details" data-product-uid={product.uid}>
      <button type="button" className="link-button" onClick={onClose}>
        ← {t('player.backToList')}
      </button>
      {images.length > 0 && (
        <div className="product-details__gallery">
          <img src={images[imageIndex] ?? images[0]} alt={product.product.name} />
          {images.length > 1 && (
            <div className="product-details__thumbs">
              {images.map((image, index) => (
                <button
                  key={image}
                  type="button"
                  aria-pressed={index === imageIndex}
                  onClick={() => {
                    setImageIndex(index);
                    onTrack('catalog.switched-product-image', product);
                  }}
                >
                  <img src={image} alt="" />
                </button>
              ))}
            </div>
          )}
        </div>
      )}
      <h2 className="product-details__name">{product.product.name}</h2>
      {!hidePrices && price && (
        <p className="product-details__price" data-testid="product-price">
          {price}
        </p>
      )}
      <StockBadge stock={stockOf(product.product, selection)} />
      {product.product.description && (
        <p className="product-details__description">{product.product.description}</p>
      )}
      <VariantPicker
        product={product.product}
        selection={selection}
        onToggle={(optionId, valueId) =>
          setSelection((current) => toggleOptionValue(current, optionId, valueId))
        }
      />
      <div className="product-details__actions">
        <button type="button" className="button" disabled aria-describedby={`cart-reason-${product.uid}`}>
          {t('player.addToCart')}
        </button>
        <p id={`cart-reason-${product.uid}`} className="product-details__reason">
          {!canPurchase
            ? t('player.expired')
            : !variantChosen
              ? t('player.chooseVariant')
              : t('player.cartComingSoon')}
        </p>
        {hasCue(product) && (
          <button type="button" className="link-button" onClick={() => onJumpToCue(product)}>
            {t('player.jumpToCue')}
          </button>
        )}
        {product.product.url && (
          <a
            className="link-button"
            href={product.product.url}
            target={newTab ? '_blank' : undefined}
            rel="noopener noreferrer"
            onClick={() => onTrack('catalog.opened-product-url', product)}
          >
            {t('player.seeInShop')}
          </a>
        )}
      </div>
    </article>
  );
}
