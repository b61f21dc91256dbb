import { canPurchase, cueTimeOf, type PlayerFit, parseStartTime } from '@vitrine/domain';
import type { EventProduct, PlayerSettings } from '@vitrine/protocol';
import { EMBED_QUERY } from '@vitrine/protocol/embed-query';
import { type CSSProperties, lazy, useCallback, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLoaderData, useLocation } from 'react-router';
import { CartButton, CartPanel, useCheckoutRouteSync, usePlayerCart } from '../checkout/player-cart.tsx';
import { currentEmbedParams } from '../host-bridge/embed-params.ts';
import { HostBridgeProvider, useHostBridge } from '../host-bridge/host-bridge-context.tsx';
import { findByHostId, hostProductId } from '../host-bridge/host-product.ts';
import {
  CommentsSlot,
  InteractionHubSlot,
  InteractionProvider,
  InteractionStageSlot,
  MobileCommentsSlot,
  PrivateCommentsSlot,
  TabUnseen,
  useInteractionNeeded,
} from '../interaction/interaction-slots.tsx';
import { LazyPart } from '../interaction/lazy-part.tsx';
import { CartCount } from './cart-count.tsx';
import { useCommentCart } from './comment-cart.tsx';
import { currentLiveDelayMs } from './live-delay.ts';
import {
  initialLayout,
  layoutAttributes,
  layoutReducer,
  type MobilePanel,
  offeredTabs,
  type PlayerTab,
  shownTab,
} from './player-layout.ts';
import { PlayerShell } from './player-shell.tsx';
import { useProductCommerce } from './product-commerce.ts';
import { ProductPanel } from './product-list.tsx';
import SharePanel from './share-panel.tsx';
import type { ShowData } from './show-loader.ts';
import { useEscapeKey } from './use-escape-key.ts';
import { useHostLifecycle } from './use-host-lifecycle.ts';
import { trackBeganCheckout, usePanelTracking } from './use-panel-tracking.ts';
import { useFrameSize, usePlayerFit } from './use-player-fit.ts';
import { usePlayerTracking } from './use-player-tracking.ts';
import { useProductTimeline } from './use-product-timeline.ts';
import { useShowModel } from './use-show-model.ts';
import { useWatchHeartbeat } from './use-watch-heartbeat.ts';
import { type NextShow, VideoStage } from './video-stage.tsx';
import './player.css';

const MOBILE_MENU: MobilePanel[] = ['share', 'comments', 'cart', 'products'];
/** Popularity and purchase badges load on demand, only for pages that show them. */
const PurchaseSignals = lazy(() => import('./purchase-signals.tsx'));
/** The Video tab's chapters load, with their texts, when the tab is first opened. */
const VideoChapters = lazy(() => import('./video-chapters.tsx'));
/** The embedded player's own controls and the host cart's notice: only a player a host page connected to shows them. */
const loadHostControls = () => import('./host-controls.tsx');
const HostControls = lazy(() => loadHostControls().then((module) => ({ default: module.HostControls })));
const HostCartErrorNotice = lazy(() =>
  loadHostControls().then((module) => ({ default: module.HostCartErrorNotice })),
);
const NOBODY_POPULAR: ReadonlySet<string> = new Set();

function themeVariables(settings: PlayerSettings): CSSProperties {
  return {
    '--vitrine-primary': settings.primaryColor,
    '--vitrine-secondary': settings.secondaryColor,
  } as CSSProperties;
}

/** The player at a show's widget route, with the show its loader found. */
export function ShowRoute() {
  const show = useLoaderData() as ShowData;
  // A link to a moment of a replay (a search result, a shared chapter) says where to start: `?t=`.
  const startTime = parseStartTime(new URLSearchParams(useLocation().search).get(EMBED_QUERY.startTime));
  return (
    <HostBridgeProvider pageUid={show.pageUid}>
      {/* A new event in the route is a new player: no state (ended, layout, stream) carries over (spec §2). */}
      <ShowPlayer key={show.event.id} show={show} startTime={startTime} />
    </HostBridgeProvider>
  );
}

export interface ShowPlayerProps {
  show: ShowData;
  next?: NextShow;
  /** Whether `show.products` holds the event's products yet (a playlist loads them after the event). */
  productsLoaded?: boolean;
  /** Seconds into a recording to start from (the link's `?t=`); null or left out: the start. */
  startTime?: number | null;
}

/**
 * The show player of spec §2: video, products in sync with it, chat, and the layout around them.
 * The show, its products' timeline, tracking and the host page's lifecycle are hooks of their
 * own; this puts their results into the layout's slots (PlayerShell).
 */
export function ShowPlayer({ show: loaded, next, productsLoaded = true, startTime = null }: ShowPlayerProps) {
  return (
    <InteractionProvider>
      <ShowPlayerContent
        show={loaded}
        {...(next ? { next } : {})}
        productsLoaded={productsLoaded}
        startTime={startTime}
      />
    </InteractionProvider>
  );
}

function ShowPlayerContent({ show: loaded, next, productsLoaded = true, startTime = null }: ShowPlayerProps) {
  const { t } = useTranslation();
  const host = useHostBridge();
  const fit: PlayerFit = usePlayerFit(host.mode, host.parentSize);
  const frame = useFrameSize();
  const { event, products, settings, now, state, stream, hidePrices, setVideoEnded } = useShowModel(loaded);
  const { pageUid, campaignUid } = loaded;

  const videoRef = useRef<HTMLVideoElement>(null);
  const [layout, dispatch] = useReducer(
    layoutReducer,
    settings.productOverlayInvisible ? 'overlay' : settings.productOverlayPosition,
    // A player the SDK brought back minimized starts so (its query says), not one frame later.
    (position: Parameters<typeof initialLayout>[0]) => ({
      ...initialLayout(position),
      minimized: currentEmbedParams()?.minimized === true,
    }),
  );
  const { activeUid, activeSinceStreamMs, shown } = useProductTimeline(videoRef, products, event, host);
  const [popularProductUids, setPopularProductUids] = useState<ReadonlySet<string>>(NOBODY_POPULAR);
  // Purchases are "from now on" (the live query has no history), so nothing is missed by waiting
  // for the viewer to start the video; the badges' code then stays out of the first load.
  const [watching, setWatching] = useState(false);

  // The built-in cart (features/checkout); an embedded player waits for its host first.
  const playerCart = usePlayerCart({
    pageUid,
    campaignUid,
    context: host.context ?? 'checkout',
    enabled: !host.embedded || host.connected,
  });
  const trackPlayer = usePlayerTracking({
    pageUid,
    campaignUid,
    event,
    stream,
    checkoutUid: playerCart.checkoutUid ?? null,
    videoRef,
    activeUid,
    host,
  });
  // The control room's median viewer delay comes from these reports (live only).
  const measuredDelay = useCallback(
    () => (stream === 'live' ? currentLiveDelayMs(videoRef.current) : null),
    [stream],
  );
  useWatchHeartbeat(videoRef, stream, trackPlayer, measuredDelay);
  const commerce = useProductCommerce({
    host,
    event,
    now,
    settingsNavigation: settings.navigation,
    track: trackPlayer,
    cart: playerCart,
  });
  useCheckoutRouteSync(playerCart.checkoutUid, commerce.cartMode === 'cart');
  const controls = useHostLifecycle({
    host,
    pageUid,
    campaignUid,
    event,
    settings,
    stream,
    productsLoaded,
    videoRef,
    minimized: layout.minimized,
    dispatch,
    trackPlayer,
  });

  // Escape closes what is open over the player (a sheet), then a modal player itself: the SDK
  // hears Escape only while the focus is on the host page, not in here.
  useEscapeKey(() => {
    if (layout.mobilePanel !== null) dispatch({ type: 'closeMobilePanel' });
    else if (host.connected && host.mode === 'modal' && !layout.minimized) controls.close();
  });

  const onEnded = useCallback(() => {
    setVideoEnded(true);
    trackPlayer('player.ended');
  }, [setVideoEnded, trackPlayer]);
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
    [setVideoEnded, trackPlayer],
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
  const commentCart = useCommentCart({ commerce, products: shown, canPurchase: canPurchase(state) });
  const commentsVisible = layout.tab === 'comments' || layout.mobilePanel === 'comments';
  const privateVisible = layout.tab === 'privateComments';
  const interactionNeeded = useInteractionNeeded({
    pageUid,
    campaignUid,
    event,
    commentsVisible,
    privateVisible,
  });

  // The Video tab lists chapters: a product's first cue starts one.
  const tabs = offeredTabs(shown.some((product) => cueTimeOf(product, event, -1) !== null));
  const tab = shownTab(layout.tab, tabs);
  const storeCurrency = event.event.storeInfo.currency;
  const productPanel = (
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
      hostData={(product) => host.productData[hostProductId(product)]?.data ?? undefined}
      upsell={layout.upsell}
      onAdded={() => dispatch({ type: 'addedToCart' })}
      onDismissUpsell={() => dispatch({ type: 'dismissUpsell' })}
    />
  );
  const activeProduct = shown.find((product) => product.uid === activeUid);
  const menu = MOBILE_MENU.filter((item) => item !== 'cart' || commerce.cartButton.visible);
  const canMinimize = host.connected && host.minimizable && settings.minimizedPlayer;
  const cartErrorProduct = host.cartError ? findByHostId(shown, host.cartError.productId) : undefined;
  const sheetPanel = layout.mobilePanel;

  return (
    <PlayerShell
      fit={fit}
      style={themeVariables(settings)}
      data={{
        'data-show-state': state,
        'data-active-product': activeUid ?? '',
        // The frame it came on (live stream clock): tests check a presentation shows on the stamped frame.
        'data-active-product-stream-ms':
          activeSinceStreamMs === null ? undefined : String(activeSinceStreamMs),
        'data-host': host.status,
        'data-cart-mode': commerce.cartMode,
        ...layoutAttributes(layout),
        'data-tab': tab,
      }}
      video={
        <VideoStage
          event={event}
          streamType={stream}
          state={state}
          videoRef={videoRef}
          onEnded={onEnded}
          onRewatch={onRewatch}
          onPlaybackEvent={onPlaybackEvent}
          startTime={startTime}
          phoneBox={
            fit.layout === 'phone' ? { width: frame.width, height: fit.maxHeight ?? frame.height } : null
          }
          {...(next ? { next } : {})}
          topActions={
            host.connected && (
              <LazyPart name="host controls">
                <HostControls
                  commerce={commerce}
                  minimized={layout.minimized}
                  canMinimize={canMinimize}
                  onMinimize={controls.minimize}
                  onMaximize={controls.maximize}
                  onClose={controls.close}
                  onShowFavorites={
                    commerce.cartMode === 'favorites'
                      ? () => host.send('show_favorites', { eventUid: event.id })
                      : null
                  }
                />
              </LazyPart>
            )
          }
        />
      }
      overVideo={
        <>
          {interactionNeeded && <InteractionStageSlot />}
          {/* With both badge settings off (spec §3) the purchases are never subscribed to. */}
          {watching && (settings.showPopularityBadges || settings.showPurchaseBadges) && (
            <LazyPart name="purchase badges">
              <PurchaseSignals
                pageUid={pageUid}
                campaignUid={campaignUid}
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
            <LazyPart name="host cart notice">
              <HostCartErrorNotice
                key={host.cartError.seq}
                url={cartErrorProduct ? (cartErrorProduct.product.url ?? cartErrorProduct.url) : null}
                commerce={commerce}
                onOpened={() =>
                  cartErrorProduct && trackPlayer('catalog.opened-product-url', cartErrorProduct)
                }
                onDismiss={host.dismissCartError}
              />
            </LazyPart>
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
        </>
      }
      menu={menu.map((item) => {
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
      panelLabel={event.event.eventName}
      tabs={tabs.map((offered) => (
        <button
          key={offered}
          type="button"
          role="tab"
          aria-selected={tab === offered}
          onClick={() => selectTab(offered)}
        >
          {t(`player.tabs.${offered}`)}
          {offered === 'products' && <span className="player__tab-count">{products.length}</span>}
          {offered === 'comments' && tab !== offered && <TabUnseen list="public" />}
          {offered === 'privateComments' && tab !== offered && <TabUnseen list="private" />}
        </button>
      ))}
      panel={
        <>
          {tab === 'products' && productPanel}
          {tab === 'video' && (
            <LazyPart name="chapters">
              <VideoChapters
                products={shown}
                // The product's first window: the start of its chapter.
                chapterStart={(product) => cueTimeOf(product, event, -1)}
                activeUid={activeUid}
                onJumpToCue={jumpToCue}
                flashDeals={{ pageUid, campaignUid, event }}
              />
            </LazyPart>
          )}
          {tab === 'comments' && interactionNeeded && <CommentsSlot />}
          {tab === 'privateComments' && interactionNeeded && <PrivateCommentsSlot />}
        </>
      }
      panelFooter={settings.showVitrineBranding && <p className="player__branding">{t('app.poweredBy')}</p>}
      dialog={
        interactionNeeded && (
          <InteractionHubSlot
            pageUid={pageUid}
            campaignUid={campaignUid}
            event={event}
            settings={settings}
            videoRef={videoRef}
            commentsVisible={commentsVisible}
            privateVisible={privateVisible}
            onOpenPrivate={() => {
              selectTab('privateComments');
              if (fit.layout === 'phone') dispatch({ type: 'openMobilePanel', panel: 'comments' });
            }}
            onCommentPosted={commentCart.onCommentPosted}
            track={trackPlayer}
          />
        )
      }
      sheet={
        sheetPanel && {
          title: t(`player.mobileMenu.${sheetPanel}`),
          onClose: () => dispatch({ type: 'closeMobilePanel' }),
          onBodyClickCapture: trackBeganCheckout(trackPlayer),
          body: (
            <>
              {sheetPanel === 'products' && productPanel}
              {sheetPanel === 'comments' && interactionNeeded && <MobileCommentsSlot />}
              {sheetPanel === 'cart' &&
                (commerce.cart ? (
                  <CartPanel cart={commerce.cart} products={products} />
                ) : (
                  <p className="panel-empty">{t('player.cartComingSoon')}</p>
                ))}
              {sheetPanel === 'share' && <SharePanel title={event.event.eventName} />}
            </>
          ),
        }
      }
    />
  );
}
