import {
  activeProductUid,
  CURRENCY_BY_LOCALE,
  canPurchase,
  cueTimeOf,
  orderProducts,
  type PlayerFit,
  pricesHidden,
  type StreamType,
  showState,
  streamType,
  trackingEventStatus,
} from '@vitrine/domain';
import type { EventProduct, LiveEvent, PlayerSettings } from '@vitrine/protocol';
import {
  type CSSProperties,
  lazy,
  useCallback,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useLoaderData } from 'react-router';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
import { type TrackingContext, track } from '../../lib/tracking.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { CartButton, CartPanel, useCheckoutRouteSync, usePlayerCart } from '../checkout/player-cart.tsx';
import { HostBridgeProvider, useHostBridge, useHostCommand } from '../host-bridge/host-bridge-context.tsx';
import { findByHostId, hostProductId, productLookup, withHostData } from '../host-bridge/host-product.ts';
import { useHostViewMessages } from '../host-bridge/use-host-view-messages.ts';
import { usePlaybackPosition } from '../host-bridge/use-playback-position.ts';
import { LazyPart } from '../interaction/lazy-part.tsx';
import { UnseenBadge, useInteraction } from '../interaction/use-interaction.tsx';
import { useCommentCart } from './comment-cart.tsx';
import { CartCount, HostCartErrorNotice, HostControls } from './host-controls.tsx';
import {
  initialLayout,
  layoutAttributes,
  layoutReducer,
  type MobilePanel,
  type PlayerTab,
} from './player-layout.ts';
import { useProductCommerce } from './product-commerce.ts';
import { ProductPanel } from './product-list.tsx';
import type { ShowData } from './show-loader.ts';
import { trackBeganCheckout, usePanelTracking } from './use-panel-tracking.ts';
import { usePlayerFit } from './use-player-fit.ts';
import { useVideoDerived } from './use-video-time.ts';
import { type NextShow, VideoStage } from './video-stage.tsx';
import './player.css';

const TABS: PlayerTab[] = ['products', 'video', 'comments', 'privateComments'];
const MOBILE_MENU: MobilePanel[] = ['share', 'comments', 'cart', 'products'];
/** How often the show state is re-checked against the clock (deadline passing, planned start). */
const CLOCK_TICK_MS = 15_000;
/** Popularity and purchase badges load on demand, only for pages that show them. */
const PurchaseSignals = lazy(() => import('./purchase-signals.tsx'));
/** The Video tab's chapters load, with their texts, when the tab is first opened. */
const VideoChapters = lazy(() => import('./video-chapters.tsx'));
const NOBODY_POPULAR: ReadonlySet<string> = new Set();

function useClock(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function rootStyle(settings: PlayerSettings, fit: PlayerFit): CSSProperties {
  return {
    '--vitrine-primary': settings.primaryColor,
    '--vitrine-secondary': settings.secondaryColor,
    ...(fit.maxHeight === null ? {} : { maxHeight: `${fit.maxHeight}px` }),
  } as CSSProperties;
}

/** The player at a show's widget route, with the show its loader found. */
export function ShowRoute() {
  const show = useLoaderData() as ShowData;
  return (
    <HostBridgeProvider pageUid={show.pageUid}>
      {/* A new event in the route is a new player: no state (ended, layout, stream) carries over (spec §2). */}
      <ShowPlayer key={show.event.id} show={show} />
    </HostBridgeProvider>
  );
}

export interface ShowPlayerProps {
  show: ShowData;
  next?: NextShow;
  /** Whether `show.products` holds the event's products yet (a playlist loads them after the event). */
  productsLoaded?: boolean;
}

/** The show player of spec §2: video, products in sync with it, chat, and the layout around them. */
export function ShowPlayer({ show: loaded, next, productsLoaded = true }: ShowPlayerProps) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const host = useHostBridge();
  const fit = usePlayerFit(host.mode, host.parentSize);

  const liveEvents = useLiveQuery('liveEvents.byId', { ids: [loaded.event.id] });
  const event: LiveEvent =
    (liveEvents.status === 'SUBSCRIBED'
      ? liveEvents.docs.find((doc) => doc.docId === loaded.event.id)
      : undefined) ?? loaded.event;
  const liveProducts = useLiveQuery('liveEventProducts', { eventId: loaded.event.id });
  const products: readonly EventProduct[] =
    liveProducts.status === 'SUBSCRIBED' ? liveProducts.docs : loaded.products;
  const liveSettings = useLiveQuery('playerSettings', { pageUid: loaded.pageUid });
  const settings: PlayerSettings = liveSettings.docs[0] ?? loaded.playerSettings;

  const videoRef = useRef<HTMLVideoElement>(null);
  const [videoEnded, setVideoEnded] = useState(false);
  const now = useClock(CLOCK_TICK_MS);
  const state = showState(event, now, videoEnded);
  // Kept across renders: a live stream stays live when its video turns into a recording (spec §4).
  const streamTypeRef = useRef<StreamType | null>(null);
  streamTypeRef.current = streamType(event, streamTypeRef.current);
  const stream = streamTypeRef.current;
  const hidePrices = pricesHidden(state, settings.hidePrices);

  const [layout, dispatch] = useReducer(
    layoutReducer,
    settings.productOverlayInvisible ? 'overlay' : settings.productOverlayPosition,
    initialLayout,
  );

  const deriveActive = useCallback(
    (time: number) => activeProductUid(products, event, time),
    [products, event],
  );
  const activeUid = useVideoDerived(videoRef, deriveActive, null);
  const deriveOrder = useCallback(
    (time: number) =>
      orderProducts(products, event, time)
        .map((product) => product.uid)
        .join(' '),
    [products, event],
  );
  const order = useVideoDerived(videoRef, deriveOrder, '');
  const ordered = useMemo(() => {
    const byUid = new Map(products.map((product) => [product.uid, product]));
    const inOrder = order.split(' ').flatMap((uid) => byUid.get(uid) ?? []);
    return inOrder.length === products.length ? inOrder : products;
  }, [order, products]);

  // The host page's data for its user replaces the catalogue's name, price and images (spec §3).
  const { usesProductData, requestProductData, productData } = host;
  useEffect(() => {
    if (usesProductData && products.length > 0) requestProductData(products.map(productLookup));
  }, [usesProductData, requestProductData, products]);
  const storeCurrency = event.event.storeInfo.currency;
  const shown = useMemo(
    () =>
      ordered.map((product) =>
        withHostData(product, productData[hostProductId(product)]?.data, storeCurrency),
      ),
    [ordered, productData, storeCurrency],
  );
  const [popularProductUids, setPopularProductUids] = useState<ReadonlySet<string>>(NOBODY_POPULAR);
  // Purchases are "from now on" (the live query has no history), so nothing is missed by waiting
  // for the viewer to start the video; the badges' code then stays out of the first load.
  const [watching, setWatching] = useState(false);

  // The built-in cart (features/checkout); an embedded player waits for its host first.
  const playerCart = usePlayerCart({
    pageUid: loaded.pageUid,
    campaignUid: loaded.campaignUid,
    context: host.context ?? 'checkout',
    enabled: !host.embedded || host.connected,
  });
  const checkoutUid = playerCart.checkoutUid ?? null;

  const trackingContext: TrackingContext = useMemo(
    () => ({
      pageUid: loaded.pageUid,
      campaignUid: loaded.campaignUid,
      eventUid: event.id,
      eventStatus: trackingEventStatus(event, stream === 'live'),
      currency: CURRENCY_BY_LOCALE[locale],
      userUid: null,
      checkoutUid,
    }),
    [loaded.pageUid, loaded.campaignUid, event, stream, locale, checkoutUid],
  );
  const { embedded, send: sendToHost } = host;
  const trackPlayer = useCallback(
    (name: Parameters<typeof track>[0], product?: EventProduct) => {
      const trackingInfo: Record<string, string> = product
        ? { productUid: product.productUid, eventProductUid: product.uid }
        : {};
      track(name, trackingContext, {
        videoAbsoluteTime: videoRef.current?.currentTime ?? null,
        playingProducts: activeUid ? [activeUid] : [],
        trackingInfo,
      });
      // The host page gets the same events when it asked for them (see isHostMessageAllowed).
      if (embedded) sendToHost('track_event', { trackingEvent: name, trackingInfo });
    },
    [trackingContext, activeUid, embedded, sendToHost],
  );

  const commerce = useProductCommerce({
    host,
    event,
    now,
    settingsNavigation: settings.navigation,
    track: trackPlayer,
    cart: playerCart,
  });
  useCheckoutRouteSync(playerCart.checkoutUid, commerce.cartMode === 'cart');
  const { ready, announce } = host;
  const { minimizedHorizontalPosition, minimizedVerticalPosition } = settings;
  const { minimizedHorizontalMargin, minimizedVerticalMargin } = settings;
  useEffect(() => {
    ready({
      pageUid: loaded.pageUid,
      campaignUid: loaded.campaignUid,
      eventUid: event.id,
      // The SDK puts the minimized player where the page's settings say, unless the host chose.
      minimizedBox: {
        horizontal: minimizedHorizontalPosition,
        vertical: minimizedVerticalPosition,
        horizontalMargin: minimizedHorizontalMargin,
        verticalMargin: minimizedVerticalMargin,
      },
    });
  }, [
    ready,
    loaded.pageUid,
    loaded.campaignUid,
    event.id,
    minimizedHorizontalPosition,
    minimizedVerticalPosition,
    minimizedHorizontalMargin,
    minimizedVerticalMargin,
  ]);
  useEffect(() => {
    if (productsLoaded) announce('content_loaded', event.id);
  }, [announce, productsLoaded, event.id]);
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !embedded) return;
    const onLoaded = () => announce('video_ready', event.id);
    if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) onLoaded();
    video.addEventListener('loadeddata', onLoaded);
    return () => video.removeEventListener('loadeddata', onLoaded);
  }, [announce, embedded, event.id]);

  usePlaybackPosition(videoRef, host, {
    campaignUid: event.event.campaignId,
    eventUid: event.id,
    live: stream === 'live',
  });

  const minimize = (fromHost: boolean) => {
    if (layout.minimized) return;
    dispatch({ type: 'setMinimized', minimized: true });
    if (!fromHost) sendToHost('minimize', {});
    trackPlayer('player.minimized');
  };
  const maximize = () => {
    dispatch({ type: 'setMinimized', minimized: false });
    sendToHost('maximize', {});
    trackPlayer('player.maximized');
  };
  const closePlayer = () => {
    videoRef.current?.pause();
    trackPlayer('player.closed');
    sendToHost('close', {});
  };
  useHostCommand((command) => {
    switch (command.type) {
      case 'close':
        // The host closes the player itself; it only has to stop playing.
        videoRef.current?.pause();
        break;
      case 'minimize':
        minimize(true);
        break;
      case 'share':
        dispatch({ type: 'openMobilePanel', panel: 'share' });
        break;
    }
  });

  const onEnded = useCallback(() => {
    setVideoEnded(true);
    trackPlayer('player.ended');
  }, [trackPlayer]);
  const onRewatch = () => {
    setVideoEnded(false);
    const video = videoRef.current;
    if (video) {
      video.currentTime = 0;
      void video.play().catch(() => undefined);
    }
  };
  const onPlaybackEvent = useCallback(
    (name: 'play' | 'paused' | 'muted' | 'unmuted') => {
      if (name === 'play') {
        setVideoEnded(false);
        setWatching(true);
      }
      trackPlayer(`player.${name}`);
    },
    [trackPlayer],
  );
  const jumpToCue = (product: EventProduct) => {
    const video = videoRef.current;
    const time = cueTimeOf(product, event, video?.currentTime ?? 0);
    if (!video || time === null) return;
    video.currentTime = time;
    void video.play().catch(() => undefined);
    trackPlayer('player.jumped-to-cue', product);
  };
  const openProduct = (uid: string) => {
    dispatch({ type: 'openProduct', productUid: uid });
    trackPlayer(
      'catalog.viewed-product-details',
      products.find((product) => product.uid === uid),
    );
  };
  const closeProduct = () => {
    dispatch({ type: 'closeProduct' });
    trackPlayer('catalog.returned-to-list');
  };
  const selectTab = (tab: PlayerTab) => {
    if (tab === 'comments' && layout.tab !== 'comments') trackPlayer('player.comments-shown');
    if (tab !== 'comments' && layout.tab === 'comments') trackPlayer('player.comments-hidden');
    dispatch({ type: 'selectTab', tab });
  };
  usePanelTracking(layout.mobilePanel, commerce.cart !== null, trackPlayer);
  useHostViewMessages(host);
  const commentCart = useCommentCart({ commerce, products: shown, canPurchase: canPurchase(state) });
  const interaction = useInteraction({
    pageUid: loaded.pageUid,
    campaignUid: loaded.campaignUid,
    event,
    settings,
    videoRef,
    commentsVisible: layout.tab === 'comments' || layout.mobilePanel === 'comments',
    privateVisible: layout.tab === 'privateComments',
    onOpenPrivate: () => {
      selectTab('privateComments');
      if (fit.layout === 'phone') dispatch({ type: 'openMobilePanel', panel: 'comments' });
    },
    onCommentPosted: commentCart.onCommentPosted,
    track: trackPlayer,
  });

  const panel = (
    <ProductPanel
      products={shown}
      activeUid={activeUid}
      detailsUid={layout.productDetails}
      storeCurrency={storeCurrency}
      hidePrices={hidePrices}
      canPurchase={canPurchase(state)}
      commerce={commerce}
      onOpen={openProduct}
      onClose={closeProduct}
      onJumpToCue={jumpToCue}
      onTrack={(name, product) => trackPlayer(name, product)}
      hasCue={(product) => cueTimeOf(product, event, 0) !== null}
      popularProductUids={settings.showPopularityBadges ? popularProductUids : NOBODY_POPULAR}
      hostData={(product) => productData[hostProductId(product)]?.data ?? undefined}
      upsell={layout.upsell}
      onAdded={() => dispatch({ type: 'addedToCart' })}
      onDismissUpsell={() => dispatch({ type: 'dismissUpsell' })}
    />
  );
  const activeProduct = shown.find((product) => product.uid === activeUid);
  const menu = MOBILE_MENU.filter((item) => item !== 'cart' || commerce.cartButton.visible);
  const canMinimize = host.connected && host.minimizable && settings.minimizedPlayer;
  const cartErrorProduct = host.cartError ? findByHostId(shown, host.cartError.productId) : undefined;

  // The player is the page's main content (one main landmark; the show's title is its h1).
  return (
    <main
      className="player"
      style={rootStyle(settings, fit)}
      data-layout={fit.layout}
      data-show-state={state}
      data-active-product={activeUid ?? ''}
      data-host={host.status}
      data-cart-mode={commerce.cartMode}
      {...layoutAttributes(layout)}
    >
      <div className="player__stage">
        <VideoStage
          event={event}
          streamType={stream}
          state={state}
          videoRef={videoRef}
          onEnded={onEnded}
          onRewatch={onRewatch}
          onPlaybackEvent={onPlaybackEvent}
          {...(next ? { next } : {})}
          topActions={
            host.connected && (
              <HostControls
                commerce={commerce}
                minimized={layout.minimized}
                canMinimize={canMinimize}
                onMinimize={() => minimize(false)}
                onMaximize={maximize}
                onClose={closePlayer}
                onShowFavorites={
                  commerce.cartMode === 'favorites'
                    ? () => sendToHost('show_favorites', { eventUid: event.id })
                    : null
                }
              />
            )
          }
        />
        {interaction.stage}
        {/* With both badge settings off (spec §3) the purchases are never subscribed to. */}
        {watching && (settings.showPopularityBadges || settings.showPurchaseBadges) && (
          <LazyPart name="purchase badges">
            <PurchaseSignals
              pageUid={loaded.pageUid}
              campaignUid={loaded.campaignUid}
              products={shown}
              showPopularityBadges={settings.showPopularityBadges}
              showPurchaseBadges={settings.showPurchaseBadges}
              onPopularChange={setPopularProductUids}
            />
          </LazyPart>
        )}
        {commerce.cart && (
          <CartButton
            count={commerce.cart.itemCount}
            open={layout.mobilePanel === 'cart'}
            onToggle={() => dispatch({ type: 'toggleMobilePanel', panel: 'cart' })}
          />
        )}
        {commentCart.notice}
        {host.cartError && (
          <HostCartErrorNotice
            key={host.cartError.seq}
            url={cartErrorProduct ? (cartErrorProduct.product.url ?? cartErrorProduct.url) : null}
            commerce={commerce}
            onOpened={() => cartErrorProduct && trackPlayer('catalog.opened-product-url', cartErrorProduct)}
            onDismiss={host.dismissCartError}
          />
        )}
        {activeProduct && layout.mobilePanel === null && (
          <button
            type="button"
            className="active-product-card"
            onClick={() => openProduct(activeProduct.uid)}
          >
            {activeProduct.product.images[0] && <img src={activeProduct.product.images[0]} alt="" />}
            <span>
              <span className="active-product-card__label">{t('player.nowShowing')}</span>
              <span className="active-product-card__name">{activeProduct.product.name}</span>
            </span>
          </button>
        )}
        <nav className="mobile-menu" aria-label={t('player.menu')}>
          {menu.map((item) => {
            const openHostCart = item === 'cart' ? commerce.cartButton.open : null;
            const count = item === 'cart' ? commerce.cartButton.itemCount : null;
            return (
              <button
                key={item}
                type="button"
                aria-pressed={openHostCart ? undefined : layout.mobilePanel === item}
                onClick={() =>
                  openHostCart ? openHostCart() : dispatch({ type: 'toggleMobilePanel', panel: item })
                }
              >
                <span aria-hidden="true" className={`mobile-menu__icon mobile-menu__icon--${item}`} />
                <span className="mobile-menu__label">{t(`player.mobileMenu.${item}`)}</span>
                {count !== null && <CartCount count={count} />}
              </button>
            );
          })}
        </nav>
      </div>

      <section className="player__panel" aria-label={event.event.eventName}>
        <div className="player__tabs" role="tablist">
          {TABS.map((tab) => (
            <button
              key={tab}
              type="button"
              role="tab"
              aria-selected={layout.tab === tab}
              onClick={() => selectTab(tab)}
            >
              {t(`player.tabs.${tab}`)}
              {tab === 'products' && <span className="player__tab-count">{products.length}</span>}
              {tab === 'comments' && layout.tab !== tab && <UnseenBadge count={interaction.unseen} />}
              {tab === 'privateComments' && layout.tab !== tab && (
                <UnseenBadge count={interaction.unseenPrivate} />
              )}
            </button>
          ))}
        </div>
        <div className="player__panel-body" role="tabpanel">
          {layout.tab === 'products' && panel}
          {layout.tab === 'video' && (
            <LazyPart name="chapters">
              <VideoChapters
                products={shown}
                // The product's first window: the start of its chapter.
                chapterStart={(product) => cueTimeOf(product, event, -1)}
                activeUid={activeUid}
                onJumpToCue={jumpToCue}
              />
            </LazyPart>
          )}
          {layout.tab === 'comments' && interaction.commentsPanel}
          {layout.tab === 'privateComments' && interaction.privatePanel}
        </div>
        {settings.showVitrineBranding && <p className="player__branding">{t('app.poweredBy')}</p>}
      </section>

      {interaction.dialog}
      {layout.mobilePanel && (
        <section className="mobile-sheet" aria-label={t(`player.mobileMenu.${layout.mobilePanel}`)}>
          <header className="mobile-sheet__header">
            <h2>{t(`player.mobileMenu.${layout.mobilePanel}`)}</h2>
            <button
              type="button"
              className="link-button"
              onClick={() => dispatch({ type: 'closeMobilePanel' })}
            >
              {t('player.close')}
            </button>
          </header>
          <div className="mobile-sheet__body" onClickCapture={trackBeganCheckout(trackPlayer)}>
            {layout.mobilePanel === 'products' && panel}
            {layout.mobilePanel === 'comments' && interaction.mobileComments}
            {layout.mobilePanel === 'cart' &&
              (commerce.cart ? (
                <CartPanel cart={commerce.cart} />
              ) : (
                <p className="panel-empty">{t('player.cartComingSoon')}</p>
              ))}
            {layout.mobilePanel === 'share' && <SharePanel title={event.event.eventName} />}
          </div>
        </section>
      )}
    </main>
  );
}

/** Shares the show's link with the system share sheet where there is one, else copies it. */
function SharePanel({ title }: { title: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const url = window.location.href;
  const share = async () => {
    if (navigator.share) {
      await navigator.share({ title, url }).catch(() => undefined);
      return;
    }
    await navigator.clipboard?.writeText(url);
    setCopied(true);
  };
  return (
    <div className="share-panel">
      <input
        readOnly
        value={url}
        aria-label={t('player.shareLink')}
        onFocus={(e) => e.currentTarget.select()}
      />
      <button type="button" className="button" onClick={() => void share()}>
        {copied ? t('player.copied') : t('player.share')}
      </button>
    </div>
  );
}
