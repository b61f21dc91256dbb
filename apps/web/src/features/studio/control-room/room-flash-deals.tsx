import {
  FLASH_DEAL_COUNTDOWN_MAX_SEC,
  FLASH_DEAL_COUNTDOWN_MIN_SEC,
  FLASH_DEAL_DURATION_MAX_SEC,
  FLASH_DEAL_DURATION_MIN_SEC,
  formatMoney,
  minorUnitDigits,
  parseDecimalPrice,
} from '@vitrine/domain';
import type { ControlRoomLineupItem, FlashDealAdminView } from '@vitrine/protocol';
import type { Locale } from '@vitrine/protocol/vocabulary';
import { type FormEvent, useState } from 'react';
import { staffCall } from '../studio-api.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { refusalText, useReloadEvery, useStaffQuery } from '../use-staff-query.ts';
import './room-flash-deals.css';
import { ErrorNotice } from '../ui/error-notice.tsx';

/** How often a running deal's figures (views, adds, units left) are read again. */
const REFRESH_MS = 2000;

/**
 * The control room's flash deals (issue 30 §3): prepare a deal for a product of the line-up (a
 * price below its regular one, a countdown, a duration, limits), start it during the live show
 * (stamped on the stream clock: every viewer's countdown ends on the same frame), or end it early;
 * with each deal's views, adds, units left, orders and revenue.
 */
export function RoomFlashDeals({
  pageUid,
  showUid,
  lineup,
  live,
}: {
  pageUid: string;
  showUid: string;
  lineup: readonly ControlRoomLineupItem[];
  live: boolean;
}) {
  const { t, i18n } = useStudioTranslation('studio-control-room');
  const params = { pageUid, showUid };
  const query = useStaffQuery('listShowFlashDeals', { params });
  const [failure, setFailure] = useState<string | null>(null);
  const { reload } = query;
  // Only a started deal's figures move (its countdown, views, adds, units); with none running the
  // room asks nothing (it listens to the controlRoom live query), and an action reloads the list.
  const running = (query.data?.deals ?? []).some((deal) => deal.status === 'started');
  useReloadEvery(reload, REFRESH_MS, running);

  const act = async (name: 'startShowFlashDeal' | 'endShowFlashDeal', dealUid: string) => {
    setFailure(null);
    try {
      await staffCall(name, { params: { ...params, dealUid } });
      reload();
    } catch (error) {
      setFailure(refusalText(error, t('flashDeals.failed')));
    }
  };
  const money = (amount: number, currency: string) => formatMoney(amount, currency, i18n.language as Locale);
  const deals = query.data?.deals ?? [];

  return (
    <div className="room-flash-deals">
      <h3 className="room-flash-deals__title">{t('flashDeals.title')}</h3>
      {deals.length === 0 ? (
        <p className="studio-muted">{t('flashDeals.none')}</p>
      ) : (
        <ul className="room-flash-deals__list">
          {deals.map((deal) => (
            <li key={deal.uid} className="room-flash-deals__deal" data-deal-status={deal.status}>
              <strong>{deal.productName}</strong> <span>{priceLine(deal, money)}</span>{' '}
              <span className="studio-badge">{t(`flashDeals.status.${deal.status}`)}</span>
              <p className="studio-small studio-muted">
                {t('flashDeals.figures', {
                  views: deal.stats.views,
                  adds: deal.stats.adds,
                  left: deal.unitsLeft,
                  total: deal.totalUnits,
                  orders: deal.stats.orders,
                })}
                {deal.stats.revenue.length > 0 &&
                  ` · ${deal.stats.revenue.map((entry) => money(entry.amount, entry.currency)).join(', ')}`}
              </p>
              {deal.status === 'prepared' && (
                <button
                  type="button"
                  className="studio-button"
                  disabled={!live}
                  title={live ? undefined : t('flashDeals.onlyLive')}
                  onClick={() => void act('startShowFlashDeal', deal.uid)}
                >
                  {t('flashDeals.start')}
                </button>
              )}
              {deal.status === 'started' && deal.endedAt === null && (
                <button
                  type="button"
                  className="studio-button studio-button--quiet"
                  onClick={() => void act('endShowFlashDeal', deal.uid)}
                >
                  {t('flashDeals.end')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorNotice message={failure} />
      <PrepareDeal pageUid={pageUid} showUid={showUid} lineup={lineup} onPrepared={reload} />
    </div>
  );
}

function priceLine(deal: FlashDealAdminView, money: (amount: number, currency: string) => string): string {
  const [currency, price] = Object.entries(deal.prices)[0] ?? [];
  if (!currency || price === undefined) return '';
  const regular = deal.regularPrices[currency as keyof typeof deal.regularPrices];
  return regular === undefined
    ? money(price, currency)
    : `${money(price, currency)} (${money(regular, currency)})`;
}

function PrepareDeal({
  pageUid,
  showUid,
  lineup,
  onPrepared,
}: {
  pageUid: string;
  showUid: string;
  lineup: readonly ControlRoomLineupItem[];
  onPrepared: () => void;
}) {
  const { t } = useStudioTranslation('studio-control-room');
  const [productUid, setProductUid] = useState(lineup[0]?.productUid ?? '');
  const [price, setPrice] = useState('');
  const [countdownSec, setCountdownSec] = useState(30);
  const [durationMin, setDurationMin] = useState(5);
  const [totalUnits, setTotalUnits] = useState(10);
  const [perShopperLimit, setPerShopperLimit] = useState(1);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const item = lineup.find((candidate) => candidate.productUid === productUid);
  const currency = item ? Object.keys(item.prices)[0] : undefined;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const minor = currency ? parseDecimalPrice(price, minorUnitDigits(currency)) : null;
    if (!item || !currency || minor === null) {
      setFailure(t('flashDeals.priceInvalid'));
      return;
    }
    setBusy(true);
    try {
      await staffCall('createShowFlashDeal', {
        params: { pageUid, showUid },
        body: {
          productUid: item.productUid,
          variantUid: null,
          prices: { [currency]: minor },
          countdownSec,
          durationSec: Math.round(durationMin * 60),
          totalUnits,
          perShopperLimit,
        },
      });
      setPrice('');
      onPrepared();
    } catch (error) {
      setFailure(refusalText(error, t('flashDeals.failed')));
    } finally {
      setBusy(false);
    }
  };

  if (lineup.length === 0) return null;
  return (
    <form className="room-flash-deals__form" onSubmit={(event) => void onSubmit(event)}>
      <h3 className="studio-small">{t('flashDeals.prepare')}</h3>
      <label>
        {t('flashDeals.product')}
        <select
          className="studio-input"
          value={productUid}
          onChange={(event) => setProductUid(event.target.value)}
        >
          {lineup.map((candidate) => (
            <option key={candidate.uid} value={candidate.productUid}>
              {candidate.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('flashDeals.price', { currency: currency ?? '' })}
        <input
          className="studio-input"
          inputMode="decimal"
          required
          value={price}
          onChange={(event) => setPrice(event.target.value)}
        />
      </label>
      <label>
        {t('flashDeals.countdown')}
        <input
          className="studio-input"
          type="number"
          min={FLASH_DEAL_COUNTDOWN_MIN_SEC}
          max={FLASH_DEAL_COUNTDOWN_MAX_SEC}
          value={countdownSec}
          onChange={(event) => setCountdownSec(Number(event.target.value))}
        />
      </label>
      <label>
        {t('flashDeals.duration')}
        <input
          className="studio-input"
          type="number"
          min={FLASH_DEAL_DURATION_MIN_SEC / 60}
          max={FLASH_DEAL_DURATION_MAX_SEC / 60}
          value={durationMin}
          onChange={(event) => setDurationMin(Number(event.target.value))}
        />
      </label>
      <label>
        {t('flashDeals.totalUnits')}
        <input
          className="studio-input"
          type="number"
          min={1}
          value={totalUnits}
          onChange={(event) => setTotalUnits(Number(event.target.value))}
        />
      </label>
      <label>
        {t('flashDeals.perShopper')}
        <input
          className="studio-input"
          type="number"
          min={1}
          value={perShopperLimit}
          onChange={(event) => setPerShopperLimit(Number(event.target.value))}
        />
      </label>
      <button type="submit" className="studio-button" disabled={busy}>
        {t('flashDeals.prepareButton')}
      </button>
      <ErrorNotice message={failure} />
    </form>
  );
}
