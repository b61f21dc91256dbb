import { formatDuration, priceFor, shopCardCover } from '@vitrine/domain';
import type { ShopEvent } from '@vitrine/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocale } from '../../lib/use-locale.ts';
import { AfterLeadImage, useLeadCoverEvents } from './lead-paint.tsx';

/** How many products a regular card shows; more would not fit their prices. */
const CARD_PREVIEW_PRODUCTS = 3;

/**
 * One show on the shop page: cover, status, time, and a preview of its products with prices
 * (none when the page hides prices, spec §3 hidePrices). The show's name is the card's only
 * link and its hit area covers the whole card, so a keyboard user meets one tab stop per show.
 */
export function EventCard({
  pageUid,
  event,
  featured = false,
  hidePrices = false,
  firstOnPage = false,
}: {
  pageUid: string;
  event: ShopEvent;
  featured?: boolean;
  hidePrices?: boolean;
  /**
   * The first card of the page, above the fold: its cover is the page's largest paint, so it loads
   * at once and ahead of other images instead of waiting for layout (lazy).
   */
  firstOnPage?: boolean;
}) {
  const { t } = useTranslation();
  const format = useLocale();
  const leadCoverEvents = useLeadCoverEvents();
  const details = event.event;
  const status = details.currentStatus;
  const cover = shopCardCover(details);
  const href = `/widget/${pageUid}/${details.campaignId}`;

  let when: string;
  if (status === 'planned') when = t('shop.startsAt', { time: format.dateTime(details.eventStartTimestamp) });
  else if (status === 'live')
    when = t('shop.liveSince', { time: format.time(details.liveStartTime ?? details.eventStartTimestamp) });
  else
    when = t('shop.recordedOn', { date: format.date(details.liveStartTime ?? details.eventStartTimestamp) });

  const length =
    status === 'vod' && details.liveStartTime !== null && details.liveEndTime !== null
      ? formatDuration((details.liveEndTime - details.liveStartTime) / 1000)
      : null;

  return (
    <article
      className={`event-card event-card--${status}${featured ? ' event-card--featured' : ''}`}
      data-event-id={event.id}
    >
      <div className="event-card__cover">
        {cover && firstOnPage ? (
          <img src={cover} alt="" loading="eager" fetchPriority="high" {...leadCoverEvents} />
        ) : cover ? (
          <AfterLeadImage src={cover} alt="" />
        ) : (
          <div className="event-card__cover-fallback" />
        )}
        <span className={`event-card__badge event-card__badge--${status}`}>{t(`shop.status.${status}`)}</span>
        {length && <span className="event-card__length">{t('shop.duration', { duration: length })}</span>}
      </div>
      <div className="event-card__body">
        <h3 className="event-card__name">
          <Link to={href} className="event-card__link">
            {details.eventName}
          </Link>
        </h3>
        <p className="event-card__when">{when}</p>
        {status === 'vod' && event.campaign.deadline !== null && (
          <p className="event-card__deadline">
            {t('shop.shoppableUntil', { date: format.date(event.campaign.deadline) })}
          </p>
        )}
        <p className="event-card__count">
          {t('shop.productCount', { count: event.shopSummary.productCount })}
        </p>
        <ul className="event-card__products">
          {event.shopSummary.previewProducts.slice(0, featured ? 4 : CARD_PREVIEW_PRODUCTS).map((product) => {
            const price = hidePrices
              ? null
              : priceFor(product.prices, format.currency, details.storeInfo.currency);
            return (
              <li key={product.uid} title={product.name}>
                {product.image ? (
                  <AfterLeadImage src={product.image} alt={product.name} />
                ) : (
                  <span>{product.name}</span>
                )}
                {price && (
                  // The currency's no-break space becomes a plain one: in a narrow card the price
                  // takes two lines instead of being cut off.
                  <span className="event-card__price">
                    {format.money(price.amount, price.currency).replaceAll('\u00a0', ' ')}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
        {/* The same link as the name, for the eye and the mouse: out of the tab order and hidden
            from screen readers, so each show is one tab stop and is announced once. */}
        <Link to={href} className="event-card__cta" tabIndex={-1} aria-hidden="true">
          {status === 'live'
            ? t('shop.watchLive')
            : status === 'vod'
              ? t('shop.watchRecording')
              : t('shop.seeShow')}
        </Link>
      </div>
    </article>
  );
}
