import {
  activeProductUid,
  CURRENCY_BY_LOCALE,
  canPurchase,
  cueTimeOf,
  orderProducts,
  pricesHidden,
  type StreamType,
  showState,
  streamType,
  trackingEventStatus,
} from '@vitrine/domain';
import type { EventProduct, LiveEvent, PlayerSettings } from '@vitrine/protocol';
import { type CSSProperties, useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLoaderData } from 'react-router';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
import { type TrackingContext, track } from '../../lib/tracking.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { CommentsPanel, PrivateCommentsPanel } from './comments-panel.tsx';
import {
  initialLayout,
  layoutAttributes,
  layoutReducer,
  type MobilePanel,
  type PlayerTab,
} from './player-layout.ts';
import { ProductPanel } from './product-list.tsx';
import type { ShowData } from './show-loader.ts';
import { useVideoDerived } from './use-video-time.ts';
import { type NextShow, VideoStage } from './video-stage.tsx';
import './player.css';

const TABS: PlayerTab[] = ['products', 'video', 'comments', 'privateComments'];
const MOBILE_MENU: MobilePanel[] = ['share', 'comments', 'cart', 'products'];
/** How often the show state is re-checked against the clock (deadline passing, planned start). */
const CLOCK_TICK_MS = 15_000;

function useClock(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function themeVariables(settings: PlayerSettings): CSSProperties {
  return {
    '--vitrine-primary': settings.primaryColor,
    '--vitrine-secondary': settings.secondaryColor,
  } as CSSProperties;
}

/** The player at a show's widget route, with the show its loader found. */
export function ShowRoute() {
  return <ShowPlayer show={useLoaderData() as ShowData} />;
}

/** The show player of spec §2: video, products in sync with it, chat, and the layout around them. */
export function ShowPlayer({ show: loaded, next }: { show: ShowData; next?: NextShow }) {
  const { t } = useTranslation();
  const { locale } = useLocale();

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

  const trackingContext: TrackingContext = useMemo(
    () => ({
      pageUid: loaded.pageUid,
      campaignUid: loaded.campaignUid,
      eventUid: event.id,
      eventStatus: trackingEventStatus(event, stream === 'live'),
      currency: CURRENCY_BY_LOCALE[locale],
      userUid: null,
      checkoutUid: null,
    }),
    [loaded.pageUid, loaded.campaignUid, event, stream, locale],
  );
  const trackPlayer = useCallback(
    (name: Parameters<typeof track>[0], product?: EventProduct) =>
      track(name, trackingContext, {
        videoAbsoluteTime: videoRef.current?.currentTime ?? null,
        playingProducts: activeUid ? [activeUid] : [],
        ...(product
          ? { trackingInfo: { productUid: product.productUid, eventProductUid: product.uid } }
          : {}),
      }),
    [trackingContext, activeUid],
  );

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
      if (name === 'play') setVideoEnded(false);
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

  const panel = (
    <ProductPanel
      products={ordered}
      activeUid={activeUid}
      detailsUid={layout.productDetails}
      storeCurrency={event.event.storeInfo.currency}
      hidePrices={hidePrices}
      canPurchase={canPurchase(state)}
      newTab={settings.navigation === 'NEW_TAB'}
      onOpen={openProduct}
      onClose={closeProduct}
      onJumpToCue={jumpToCue}
      onTrack={(name, product) => trackPlayer(name, product)}
      hasCue={(product) => cueTimeOf(product, event, 0) !== null}
    />
  );
  const activeProduct = products.find((product) => product.uid === activeUid);

  return (
    <div
      className="player"
      style={themeVariables(settings)}
      data-show-state={state}
      data-active-product={activeUid ?? ''}
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
        />
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
          {MOBILE_MENU.map((item) => (
            <button
              key={item}
              type="button"
              aria-pressed={layout.mobilePanel === item}
              onClick={() => dispatch({ type: 'toggleMobilePanel', panel: item })}
            >
              <span aria-hidden="true" className={`mobile-menu__icon mobile-menu__icon--${item}`} />
              <span className="mobile-menu__label">{t(`player.mobileMenu.${item}`)}</span>
            </button>
          ))}
        </nav>
      </div>

      <aside className="player__panel" aria-label={event.event.eventName}>
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
            </button>
          ))}
        </div>
        <div className="player__panel-body" role="tabpanel">
          {layout.tab === 'products' && panel}
          {layout.tab === 'comments' && (
            <CommentsPanel pageUid={loaded.pageUid} campaignUid={loaded.campaignUid} />
          )}
          {layout.tab === 'privateComments' && <PrivateCommentsPanel />}
        </div>
        {settings.showVitrineBranding && <p className="player__branding">{t('app.poweredBy')}</p>}
      </aside>

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
          <div className="mobile-sheet__body">
            {layout.mobilePanel === 'products' && panel}
            {layout.mobilePanel === 'comments' && (
              <CommentsPanel pageUid={loaded.pageUid} campaignUid={loaded.campaignUid} />
            )}
            {layout.mobilePanel === 'cart' && <p className="panel-empty">{t('player.cartComingSoon')}</p>}
            {layout.mobilePanel === 'share' && <SharePanel title={event.event.eventName} />}
          </div>
        </section>
      )}
    </div>
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
