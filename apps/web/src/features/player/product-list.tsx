import type { ProductDisplayMode } from '@vitrine/domain';
import {
  displayPrice,
  displayPriceWithWas,
  hostProductExtras,
  matchingVariant,
  selectionImage,
  stockSignal,
  toggleOptionValue,
} from '@vitrine/domain';
import type { EventProduct, HostProductData, Product } from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';
import { lazy, type MouseEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WasPrice } from '../../components/was-price.tsx';
import { useLocale } from '../../lib/use-locale.ts';
import { AddFeedback, type AddOutcome } from '../checkout/add-feedback.tsx';
import { LazyPart } from '../interaction/lazy-part.tsx';
import type { ProductCommerce } from './product-commerce.ts';
import type { UpsellSuggestion } from './upsell-suggestions.tsx';
import { type OptionSelection, VariantPicker } from './variant-picker.tsx';

/**
 * A formatted description's rebuilder loads with the first product that has one: the widget's
 * first bundle carries only the plain text, which shows until it is there (and if it cannot load).
 */
const RichDescription = lazy(() =>
  import('./rich-description.tsx').then((module) => ({ default: module.RichDescription })),
);

function ProductDescription({ text, html }: { text: string; html?: string | null | undefined }) {
  const plain = text ? <p className="product-details__description">{text}</p> : null;
  if (!html) return plain;
  return (
    <LazyPart name="the formatted description" fallback={plain}>
      <RichDescription text={text} html={html} />
    </LazyPart>
  );
}

export interface ProductPanelProps {
  products: readonly EventProduct[];
  activeUid: string | null;
  detailsUid: string | null;
  storeCurrency: Currency;
  hidePrices: boolean;
  canPurchase: boolean;
  /** How products are bought and priced here (host page, link mode, …). */
  commerce: ProductCommerce;
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
  /** Catalogue product uids labelled "popular" (empty when the page hides popularity badges). */
  popularProductUids?: ReadonlySet<string>;
  /** The host page's data for a product and its user, when the host sent some. */
  hostData?(product: EventProduct): HostProductData | undefined;
  /** Upsell mode (see `PlayerLayout.upsell`): the open product's details suggest the others. */
  upsell?: boolean;
  /** The open product went into the cart (the player's or the host's). */
  onAdded?(): void;
  onDismissUpsell?(): void;
}

/** Reseller prices and option styles from the host's data: their code loads only when a host sends data. */
const ProductExtras = lazy(() => import('./product-extras.tsx'));
/** Upsell mode's suggestions: their code loads only after a first add to the cart. */
const UpsellSuggestions = lazy(() => import('./upsell-suggestions.tsx'));
/** How many other products upsell mode suggests: a short row, not a second product list. */
const UPSELL_SUGGESTIONS = 3;

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

/**
 * Upsell mode's suggestions for the open product: the show's other products that can still be
 * bought, in the list's order, priced as the list prices them (none while prices are hidden or loading).
 */
function useUpsellSuggestions({
  product: open,
  products,
  storeCurrency,
  hidePrices,
  commerce,
}: ProductPanelProps & { product: EventProduct }): UpsellSuggestion[] {
  const format = useLocale();
  return products
    .filter(
      (candidate) =>
        candidate.uid !== open.uid &&
        stockOf(candidate.product, {}) !== 0 &&
        (commerce.cartMode !== 'hostCart' || commerce.salable(candidate)),
    )
    .slice(0, UPSELL_SUGGESTIONS)
    .map((candidate) => {
      const mode = commerce.priceMode(candidate);
      const price =
        hidePrices || mode === 'hidden' || mode === 'loading'
          ? null
          : displayPrice(candidate.product, {}, format.currency, storeCurrency);
      return {
        uid: candidate.uid,
        name: candidate.product.name,
        image: candidate.product.images[0] ?? null,
        price: price ? format.money(price.amount, price.currency) : null,
      };
    });
}

/** The price to show, with the "was" price struck through beside it when there is a deal. */
function usePrice(product: Product, selection: OptionSelection, storeCurrency: Currency): ReactNode {
  const format = useLocale();
  const price = displayPriceWithWas(product, selection, format.currency, storeCurrency);
  if (!price) return null;
  const now = format.money(price.amount, price.currency);
  if (price.was === null) return now;
  return (
    <>
      {now} <WasPrice text={format.money(price.was, price.currency)} />
    </>
  );
}

/** The stock signals of spec §4: "popular" (from purchases) next to the stock label. */
function StockBadge({ stock, popular }: { stock: number | null; popular: boolean }) {
  const { t } = useTranslation();
  const signal = stockSignal(stock);
  return (
    <>
      {popular && stock !== 0 && (
        <span className="stock-badge stock-badge--popular">{t('player.stock.popular')}</span>
      )}
      {signal && <span className={`stock-badge stock-badge--${signal}`}>{t(`player.stock.${signal}`)}</span>}
    </>
  );
}

/**
 * The price as the product display mode says (spec §4): nothing while hidden, a placeholder while
 * the host's price is loading, else the price (the host's, laid over the catalogue's, when it sent one).
 */
function PriceArea({
  mode,
  price,
  render,
}: {
  mode: ProductDisplayMode;
  price: ReactNode;
  render(text: ReactNode, busy: boolean): ReactNode;
}) {
  const { t } = useTranslation();
  if (mode === 'hidden') return null;
  if (mode === 'loading')
    return render(<span className="price-loading">{t('player.host.priceLoading')}</span>, true);
  return price ? render(price, false) : null;
}

/** A link to the product in the shop: through the host page when embedded (go_to_url), else a plain link. */
function ShopLink({
  url,
  commerce,
  className,
  onOpened,
  children,
}: {
  url: string;
  commerce: ProductCommerce;
  className: string;
  onOpened(): void;
  children: ReactNode;
}) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onOpened();
    if (commerce.openUrl(url)) event.preventDefault();
  };
  return (
    <a
      className={className}
      href={url}
      target={commerce.newTab ? '_blank' : undefined}
      rel="noopener noreferrer"
      onClick={onClick}
    >
      {children}
    </a>
  );
}

/** The favourite toggle of a host page that keeps favourites (TOGGLE_IS_FAVORITE). */
function FavoriteToggle({ product, commerce }: { product: EventProduct; commerce: ProductCommerce }) {
  const { t } = useTranslation();
  if (!commerce.favorite) return null;
  const isFavorite = commerce.favorite.isFavorite(product);
  const toggle = commerce.favorite.toggle;
  return (
    <button
      type="button"
      className="favorite-toggle"
      aria-pressed={isFavorite}
      aria-label={t(isFavorite ? 'player.host.removeFavorite' : 'player.host.addFavorite')}
      title={t(isFavorite ? 'player.host.removeFavorite' : 'player.host.addFavorite')}
      onClick={() => toggle(product)}
    >
      <span aria-hidden="true">{isFavorite ? '♥' : '♡'}</span>
    </button>
  );
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
  commerce,
  onOpen,
  popularProductUids,
}: ProductPanelProps & { product: EventProduct }) {
  const { t } = useTranslation();
  const price = usePrice(product.product, {}, storeCurrency);
  const image = product.product.images[0];
  return (
    <div className="product-card-wrap">
      <button type="button" className="product-card" onClick={() => onOpen(product.uid)}>
        {image ? <img src={image} alt="" loading="lazy" /> : <span className="product-card__no-image" />}
        <span className="product-card__text">
          {product.uid === activeUid && <span className="product-card__now">{t('player.nowShowing')}</span>}
          <span className="product-card__name">{product.product.name}</span>
          {!hidePrices && (
            <PriceArea
              mode={commerce.priceMode(product)}
              price={price}
              render={(text, busy) => (
                <span className="product-card__price" aria-busy={busy || undefined}>
                  {text}
                </span>
              )}
            />
          )}
          <StockBadge
            stock={stockOf(product.product, {})}
            popular={popularProductUids?.has(product.productUid) ?? false}
          />
        </span>
      </button>
      <FavoriteToggle product={product} commerce={commerce} />
    </div>
  );
}

function ProductDetails(props: ProductPanelProps & { product: EventProduct }) {
  const { product, storeCurrency, hidePrices, commerce, onClose, onJumpToCue, onTrack, hasCue } = props;
  const { t } = useTranslation();
  const [selection, setSelection] = useState<OptionSelection>({});
  const [imageIndex, setImageIndex] = useState(0);
  // The photo of a picked option value (picking White shows the white one) until a thumbnail is chosen.
  const [pickedImage, setPickedImage] = useState<string | null>(null);
  useEffect(() => {
    setPickedImage(selectionImage(product.product, selection));
  }, [product.product, selection]);
  const price = usePrice(product.product, selection, storeCurrency);
  const productImages = product.product.images;
  const images =
    pickedImage && !productImages.includes(pickedImage) ? [...productImages, pickedImage] : productImages;
  const shownIndex = pickedImage ? images.indexOf(pickedImage) : imageIndex;
  const url = product.product.url ?? product.url;
  const hostData = props.hostData?.(product);
  const extras = hostData ? hostProductExtras(hostData, storeCurrency) : null;
  const suggestions = useUpsellSuggestions(props);
  // The list the viewer chose from is gone: focus moves to what replaced it (the product's name),
  // so keyboard and screen-reader users continue here instead of from the top of the page.
  // A copy of the panel hidden by the layout (phone or desktop) cannot take focus and is skipped.
  const nameRef = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus once per product opened
  useEffect(() => {
    nameRef.current?.focus({ preventScroll: false });
  }, [product.uid]);

  return (
    <article className="product-details" data-product-uid={product.uid}>
      <button type="button" className="link-button" onClick={onClose}>
        ← {t('player.backToList')}
      </button>
      {images.length > 0 && (
        <div className="product-details__gallery">
          <img
            src={images[shownIndex] ?? images[0]}
            alt={product.product.name}
            data-testid="product-main-image"
          />
          {images.length > 1 && (
            <div className="product-details__thumbs">
              {images.map((image, index) => (
                <button
                  key={image}
                  type="button"
                  aria-pressed={index === shownIndex}
                  aria-label={t('player.productImage', { n: index + 1, total: images.length })}
                  onClick={() => {
                    setImageIndex(index);
                    setPickedImage(null);
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
      <div className="product-details__heading">
        <h2 className="product-details__name" ref={nameRef} tabIndex={-1}>
          {product.product.name}
        </h2>
        <FavoriteToggle product={product} commerce={commerce} />
      </div>
      {!hidePrices && (
        <PriceArea
          mode={commerce.priceMode(product)}
          price={price}
          render={(text, busy) => (
            <p className="product-details__price" data-testid="product-price" aria-busy={busy || undefined}>
              {text}
            </p>
          )}
        />
      )}
      <StockBadge
        stock={stockOf(product.product, selection)}
        popular={props.popularProductUids?.has(product.productUid) ?? false}
      />
      <ProductDescription text={product.product.description} html={product.product.descriptionHtml} />
      <VariantPicker
        product={product.product}
        selection={selection}
        onToggle={(optionId, valueId) =>
          setSelection((current) => toggleOptionValue(current, optionId, valueId))
        }
      />
      {extras && (
        <LazyPart name="host product extras">
          <ProductExtras
            product={product.product}
            extras={extras}
            currency={storeCurrency}
            selection={selection}
            onToggle={(optionId, valueId) =>
              setSelection((current) => toggleOptionValue(current, optionId, valueId))
            }
          />
        </LazyPart>
      )}
      <div className="product-details__actions">
        <CartAction {...props} selection={selection} url={url} />
        {hasCue(product) && (
          <button type="button" className="link-button" onClick={() => onJumpToCue(product)}>
            {t('player.jumpToCue')}
          </button>
        )}
        {url && commerce.cartMode !== 'link' && (
          <ShopLink
            url={url}
            commerce={commerce}
            className="link-button"
            onOpened={() => onTrack('catalog.opened-product-url', product)}
          >
            {t('player.seeInShop')}
          </ShopLink>
        )}
      </div>
      {props.upsell && suggestions.length > 0 && (
        <LazyPart name="upsell suggestions">
          <UpsellSuggestions
            suggestions={suggestions}
            onOpen={props.onOpen}
            onDismiss={() => props.onDismissUpsell?.()}
          />
        </LazyPart>
      )}
    </article>
  );
}

/**
 * The buying action of a product, by cart mode (see CartMode): add to the host's cart, a "See in
 * shop" link in link mode, nothing in FAVORITES mode, else the disabled button with its reason.
 */
function CartAction({
  product,
  selection,
  url,
  canPurchase,
  commerce,
  onTrack,
  onAdded,
}: ProductPanelProps & { product: EventProduct; selection: OptionSelection; url: string | null }) {
  const { t } = useTranslation();
  const [added, setAdded] = useState(false);
  const [outcome, setOutcome] = useState<AddOutcome | null>(null);
  const [adding, setAdding] = useState(false);
  const variant = matchingVariant(product.product, selection);
  const variantChosen = product.product.variants.length === 0 || variant !== null;
  const reasonId = `cart-reason-${product.uid}`;

  // The "Added" confirmation belongs to the selection it was given for.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the product or selection changes
  useEffect(() => {
    setAdded(false);
    setOutcome(null);
  }, [product.uid, selection]);

  switch (commerce.cartMode) {
    case 'favorites':
      return null;
    case 'link':
      return url ? (
        <ShopLink
          url={url}
          commerce={commerce}
          className="button"
          onOpened={() => onTrack('catalog.opened-product-url', product)}
        >
          {t('player.seeInShop')}
        </ShopLink>
      ) : null;
    case 'hostCart': {
      const salable = commerce.salable(product);
      const reason = !canPurchase
        ? t('player.expired')
        : !salable
          ? t('player.soldOut')
          : !variantChosen
            ? t('player.chooseVariant')
            : null;
      return (
        <>
          <button
            type="button"
            className="button"
            disabled={reason !== null}
            aria-describedby={reason === null ? undefined : reasonId}
            onClick={() => {
              commerce.addToCart(product, variant?.uid ?? null);
              setAdded(true);
              onAdded?.();
            }}
          >
            {t('player.addToCart')}
          </button>
          <p id={reasonId} className="product-details__reason" role="status">
            {reason ?? (added ? t('player.host.added') : '')}
          </p>
        </>
      );
    }
    case 'cart': {
      // The built-in cart: the server reserves the unit and answers with a feedback state (spec §4).
      const cart = commerce.cart;
      const reason = !canPurchase
        ? t('player.expired')
        : !variantChosen
          ? t('player.chooseVariant')
          : stockOf(product.product, selection) === 0
            ? t('player.soldOut')
            : null;
      const shopLink = url ? (
        <ShopLink
          url={url}
          commerce={commerce}
          className="cart-feedback__link"
          onOpened={() => onTrack('catalog.opened-product-url', product)}
        >
          {t('player.seeInShop')}
        </ShopLink>
      ) : null;
      return (
        <>
          {/* aria-disabled, not disabled: a focused button that became disabled (adding, or the
              last unit just taken) would drop the keyboard focus to the page's body. */}
          <button
            type="button"
            className="button"
            aria-disabled={reason !== null || adding || cart === null}
            aria-busy={adding || undefined}
            aria-describedby={reasonId}
            onClick={async () => {
              if (!cart || reason !== null || adding) return;
              setAdding(true);
              setOutcome(null);
              const answer = await cart.addProduct(product, variant?.uid ?? null);
              setOutcome(answer);
              setAdding(false);
              if (answer === 'added') onAdded?.();
            }}
          >
            {t('player.addToCart')}
          </button>
          <div id={reasonId} className="product-details__feedback">
            {/* The last unit just added sells the product out: the shopper still reads "Added". */}
            {reason !== null && outcome !== 'added' ? (
              <p className="product-details__reason">{reason}</p>
            ) : (
              outcome && <AddFeedback outcome={outcome} shopLink={shopLink} />
            )}
          </div>
        </>
      );
    }
    case 'unavailable':
      return (
        <>
          <button type="button" className="button" disabled aria-describedby={reasonId}>
            {t('player.addToCart')}
          </button>
          <p id={reasonId} className="product-details__reason">
            {!canPurchase
              ? t('player.expired')
              : !variantChosen
                ? t('player.chooseVariant')
                : t('player.cartComingSoon')}
          </p>
        </>
      );
  }
}
