import { groupShopEvents, shopCardCover } from '@vitrine/domain';
import type { PlayerSettings, ShopEvent, ShopEvents, StoreInfo } from '@vitrine/protocol';
import type { EventCurrentStatus } from '@vitrine/protocol/vocabulary';
import { type CSSProperties, lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLoaderData } from 'react-router';
import { LanguagePicker } from '../../components/language-picker.tsx';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
import { termsPath } from '../terms/terms-path.ts';
import { EventCard } from './event-card.tsx';
import { AfterLeadImage, LeadPaintProvider, useLeadPainted } from './lead-paint.tsx';
import type { ShopData } from './shop-loader.ts';
import './shop.css';

/**
 * The search box and its results load apart, once the lead cover has been painted (SearchSlot): on
 * a phone's slow line their code no longer comes before the page's largest paint.
 */
const ShowSearch = lazy(() => import('../search/show-search.tsx'));

/** CSS custom properties carrying the page's colours to every component below. */
export function themeStyle(settings: PlayerSettings | null): CSSProperties {
  if (!settings) return {};
  return {
    '--vitrine-primary': settings.primaryColor,
    '--vitrine-secondary': settings.secondaryColor,
  } as CSSProperties;
}

/** The store front page: store info and its live, upcoming and on-demand shows (spec §2, §4). */
export function ShopPage() {
  const { pageUid, storeInfo, playerSettings, events: loadedEvents } = useLoaderData() as ShopData;
  const { t } = useTranslation();
  const events = useLiveShopEvents(pageUid, loadedEvents);
  const rows: EventRowData[] = events
    ? [
        { key: 'live' as const, title: t('shop.liveNow'), events: events.live },
        { key: 'planned' as const, title: t('shop.upcoming'), events: events.planned },
        { key: 'vod' as const, title: t('shop.onDemand'), events: events.vod },
      ].filter((row) => row.events.length > 0)
    : [];
  const live = rows.find((row) => row.key === 'live');
  const hidePrices = playerSettings?.hidePrices ?? false;
  const later = rows.filter((row) => row.key !== 'live');
  // The first card's cover is the page's largest paint (EventCard firstOnPage).
  const leadEvent = (live ?? later[0])?.events[0];

  return (
    <LeadPaintProvider hasLeadCover={leadEvent !== undefined && shopCardCover(leadEvent.event) !== null}>
      <div className="shop" style={themeStyle(playerSettings)}>
        <header className="shop-header">
          <div className="shop-header__inner">
            {storeInfo?.logo && <img className="shop-header__logo" src={storeInfo.logo} alt="" />}
            <div className="shop-header__text">
              <h1 className="shop-header__name">{storeInfo?.name ?? pageUid}</h1>
              {storeInfo?.description && <p className="shop-header__description">{storeInfo.description}</p>}
            </div>
            <LanguagePicker />
          </div>
          {storeInfo?.storefront.frontpageText && (
            <p className="shop-header__frontpage">{storeInfo.storefront.frontpageText}</p>
          )}
        </header>

        <main className="shop-main">
          <SearchSlot pageUid={pageUid} />
          {events === null && (
            <p className="shop-message" role="alert">
              {t('app.couldNotLoad')}
            </p>
          )}
          {events !== null && rows.length === 0 && <p className="shop-message">{t('shop.noEvents')}</p>}
          {live && <EventRow row={live} pageUid={pageUid} hidePrices={hidePrices} featured firstOnPage />}
          {later.length > 0 && (
            <div className="shop-rows-split">
              {later.map((row, index) => (
                <EventRow
                  key={row.key}
                  row={row}
                  pageUid={pageUid}
                  hidePrices={hidePrices}
                  firstOnPage={!live && index === 0}
                />
              ))}
            </div>
          )}
          {storeInfo && <StoreCards storeInfo={storeInfo} />}
        </main>

        {storeInfo && (
          <StoreFooter storeInfo={storeInfo} showBranding={playerSettings?.showVitrineBranding ?? true} />
        )}
      </div>
    </LeadPaintProvider>
  );
}

/** The search box, once the lead cover is on screen; its space is kept until then (show-search.css), so nothing moves. */
function SearchSlot({ pageUid }: { pageUid: string }) {
  const pending = <div className="show-search-pending" />;
  if (!useLeadPainted()) return pending;
  return (
    <Suspense fallback={pending}>
      <ShowSearch pageUid={pageUid} />
    </Suspense>
  );
}

/** How often the rows are re-checked against the 15-minute windows while the page stays open. */
const VISIBILITY_RECHECK_MS = 30_000;

/**
 * The shop page's events, kept current: the loader's list until the live query has its
 * snapshot, then the live query's documents, grouped by the same visibility rule the server
 * uses, re-applied as time passes.
 */
function useLiveShopEvents(pageUid: string, loaded: ShopEvents | null): ShopEvents | null {
  const live = useLiveQuery('liveEvents.shop', { pageUid });
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), VISIBILITY_RECHECK_MS);
    return () => clearInterval(timer);
  }, []);
  return useMemo(
    () => (live.status === 'SUBSCRIBED' ? groupShopEvents(live.docs, now) : loaded),
    [live.status, live.docs, loaded, now],
  );
}

interface EventRowData {
  key: EventCurrentStatus;
  title: string;
  events: ShopEvent[];
}

/** One row of shows; live shows get wide, featured cards because they are what to watch now. */
function EventRow({
  row,
  pageUid,
  featured = false,
  hidePrices,
  firstOnPage = false,
}: {
  row: EventRowData;
  pageUid: string;
  featured?: boolean;
  hidePrices: boolean;
  /** The page's first row: its first card's cover loads first (see EventCard). */
  firstOnPage?: boolean;
}) {
  return (
    <section className="shop-row" aria-labelledby={`shop-row-${row.key}`} data-row={row.key}>
      <h2 id={`shop-row-${row.key}`} className="shop-row__title">
        {row.key === 'live' && <span className="live-dot" aria-hidden="true" />}
        {row.title}
      </h2>
      <ul className={featured ? 'shop-row__cards shop-row__cards--featured' : 'shop-row__cards'}>
        {row.events.map((event, index) => (
          <li key={event.id}>
            <EventCard
              pageUid={pageUid}
              event={event}
              featured={featured}
              hidePrices={hidePrices}
              firstOnPage={firstOnPage && index === 0}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

function StoreCards({ storeInfo }: { storeInfo: StoreInfo }) {
  const cards = Object.entries(storeInfo.storefront.cards);
  if (cards.length === 0) return null;
  return (
    <section className="store-cards" aria-label={storeInfo.name}>
      {cards.map(([key, card]) => (
        <article key={key} className="store-card">
          {card.image && <AfterLeadImage src={card.image} alt="" />}
          <h3>{card.title}</h3>
          {card.text && <p>{card.text}</p>}
        </article>
      ))}
    </section>
  );
}

function StoreFooter({ storeInfo, showBranding }: { storeInfo: StoreInfo; showBranding: boolean }) {
  const { t } = useTranslation();
  const { address } = storeInfo;
  return (
    <footer className="shop-footer">
      <div>
        <h2>{t('shop.contact')}</h2>
        <address>
          {address.name && <div>{address.name}</div>}
          {address.street && <div>{address.street}</div>}
          {(address.postCode || address.city) && (
            <div>{[address.postCode, address.city].filter(Boolean).join(' ')}</div>
          )}
          {address.email && (
            <div>
              <a href={`mailto:${address.email}`}>{address.email}</a>
            </div>
          )}
          {address.phone && <div>{address.phone}</div>}
        </address>
        {storeInfo.cvr && (
          <div className="shop-footer__cvr">{t('shop.companyId', { cvr: storeInfo.cvr })}</div>
        )}
      </div>
      <nav>
        <Link to={termsPath(storeInfo.uid)}>{t('shop.terms')}</Link>
        {showBranding && <span className="shop-footer__branding">{t('app.poweredBy')}</span>}
      </nav>
    </footer>
  );
}
