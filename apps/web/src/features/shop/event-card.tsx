import { formatDuration, priceFor } from '@vitrine/domain';
import type { ShopEvent } from '@vitrine/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocale } from '../../lib/use-locale.ts';

/** How many products a regular card shows; more would not fit their prices. */
const CARD_PREVIEW_PRODUCTS = 3;

/** One show on the shop page: cover, status, time, and a preview of its products with prices. */
export function EventCard({
  pageUid,
  event,
  featured = false,
}: {
  pageUid: string;
  event: ShopEvent;
  featured?: boolean;
}) {
  const { t } = useTranslation();
  const format = useLocale();
  const details = event.event;
  const status = details.currentStatus;
  const cover = details.coverPhotoPath ?? details.liveVideoCover ?? details.liveVideoFormat?.picture ?? null;
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
      <Link to={href} className="event-card__cover" aria-label={details.eventName}>
        {cover ? <img src={cover} alt="" loading="lazy" /> : <div className="event-card__cover-fallback" />}
        <span className={`event-card__badge event-card__badge--${status}`}>{t(`shop.status.${status}`)}</span>
        {length && <span className="event-card__length">{t('shop.duration', { duration: length })}</span>}
      </Link>
      <div className="event-card__body">
        <h3 className="event-card__name">
          <Link to={href}>{details.eventName}</Link>
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
            const price = priceFor(product.prices, format.currency, details.storeInfo.currency);
            return (
              <li key={product.uid} title={product.name}>
                {product.image ? (
                  <img src={product.image} alt={product.name} loading="lazy" />
                ) : (
                  <span>{product.name}</span>
                )}
                {price && (
                  <span className="event-card__price">{format.money(price.amount, price.currency)}</span>
                )}
              </li>
            );
          })}
        </ul>
        <Link to={href} className="event-card__cta">
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
