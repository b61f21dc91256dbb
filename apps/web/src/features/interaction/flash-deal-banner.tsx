import { type FlashDealView, flashDealAsSeen, formatDealClock } from '@vitrine/domain';
import type { FlashDealPresentation, LiveEvent } from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { followVideoFrames } from '../../lib/follow-video-frames.ts';
import { playingDateOf } from '../../lib/live-clock.ts';
import { callAsViewer } from '../../lib/session.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { viewerMoment } from './competition-clock.ts';
import { useInteractionTranslation } from './interaction-i18n.ts';
import './flash-deal.css';

/** How often the deal is checked when no video frame comes (a paused video, a planned show). */
const CHECK_EVERY_MS = 250;

interface Seen {
  deal: FlashDealPresentation;
  view: FlashDealView;
  /** The program date time of the frame the view was computed on (live stream clock), else null. */
  streamMs: number | null;
}

/** The deal to show: the latest started one this viewer's video has reached (ended ones too). */
function dealToShow(
  deals: readonly FlashDealPresentation[],
  event: LiveEvent,
  video: HTMLVideoElement | null,
): Seen | null {
  const moment = viewerMoment(video, event);
  const streamMs = moment.clock === 'stream' ? Math.round(moment.playingDateMs) : null;
  let shown: Seen | null = null;
  for (const deal of deals) {
    const view = flashDealAsSeen(deal, event, moment);
    if (view.phase === 'hidden') continue;
    if (!shown || (deal.startedAt ?? 0) >= (shown.deal.startedAt ?? 0)) shown = { deal, view, streamMs };
  }
  return shown;
}

/** What changes on screen: the phase and the clock to the second. */
const keyOf = (seen: Seen | null) =>
  seen === null
    ? ''
    : `${seen.deal.uid}:${seen.view.phase}:${'msLeft' in seen.view ? Math.ceil(seen.view.msLeft / 1000) : ''}`;

/**
 * The deal as this viewer's video shows it, checked on every frame the video presents (and a few
 * times a second without frames): the countdown and the end are stamps on the stream clock, so
 * they fall on the same frame for every viewer, whatever her delay.
 */
function useDealOnScreen(
  videoRef: RefObject<HTMLVideoElement | null>,
  event: LiveEvent,
  deals: readonly FlashDealPresentation[],
): Seen | null {
  const compute = useCallback(() => dealToShow(deals, event, videoRef.current), [deals, event, videoRef]);
  const [seen, setSeen] = useState(compute);
  useEffect(() => {
    const update = () =>
      setSeen((previous) => {
        const next = compute();
        return keyOf(next) === keyOf(previous) && next?.deal === previous?.deal ? previous : next;
      });
    update();
    return followVideoFrames(videoRef.current, update, CHECK_EVERY_MS);
  }, [compute, videoRef]);
  return seen;
}

type AddState = { kind: 'idle' } | { kind: 'adding' } | { kind: 'added' } | { kind: 'refused'; code: string };

/**
 * The flash deal banner (issue 30 §3): the countdown to the deal, then the deal price with the
 * time left, then "Deal has ended" — each on the stream clock. Adding sends the program date time
 * of the frame on screen, the moment she saw; the server judges the deal price on it. Sold out
 * shows at once. On a replay a past deal shows as ended, without its price.
 */
export default function FlashDealBanner({
  pageUid,
  campaignUid,
  event,
  videoRef,
  deals,
}: {
  pageUid: string;
  campaignUid: string;
  event: LiveEvent;
  videoRef: RefObject<HTMLVideoElement | null>;
  deals: readonly FlashDealPresentation[];
}) {
  const { t } = useInteractionTranslation();
  const { money, currency: localeCurrency } = useLocale();
  const seen = useDealOnScreen(videoRef, event, deals);
  const [add, setAdd] = useState<AddState>({ kind: 'idle' });
  const viewedRef = useRef(new Set<string>());
  const dealUid = seen?.deal.uid;
  const open = seen?.view.phase === 'open';

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new deal on screen starts with a fresh button.
  useEffect(() => setAdd({ kind: 'idle' }), [dealUid]);
  useEffect(() => {
    if (!open || !dealUid || viewedRef.current.has(dealUid)) return;
    viewedRef.current.add(dealUid);
    void callAsViewer('flashDealViewed', { pageUid, campaignUid, dealUid }).catch(() => undefined);
  }, [open, dealUid, pageUid, campaignUid]);

  if (!seen) return null;
  const { deal, view } = seen;
  const currencies = Object.keys(deal.prices) as Currency[];
  const currency = currencies.includes(localeCurrency) ? localeCurrency : currencies[0];
  const dealPrice = currency === undefined ? undefined : deal.prices[currency];
  const regularPrice = currency === undefined ? undefined : deal.regularPrices[currency];

  const onAdd = async () => {
    setAdd({ kind: 'adding' });
    // The moment she saw: the frame on screen's program date time (null without a stream clock).
    const streamPositionMs = event.event.currentStatus === 'live' ? playingDateOf(videoRef.current) : null;
    try {
      const answer = await callAsViewer('flashDealAdd', {
        pageUid,
        campaignUid,
        dealUid: deal.uid,
        quantity: 1,
        streamPositionMs: streamPositionMs === null ? null : Math.round(streamPositionMs),
        ...(currency ? { currency } : {}),
      });
      setAdd(answer.status === 'added' ? { kind: 'added' } : { kind: 'refused', code: answer.status });
    } catch (error) {
      setAdd({ kind: 'refused', code: error instanceof ApiError ? error.code : 'failed' });
    }
  };

  return (
    <aside
      className={`flash-deal flash-deal--${view.phase}`}
      aria-live="polite"
      data-testid="flash-deal"
      // The frame the phase was last computed on: tests check it flips on the stamped frame.
      data-stream-ms={seen.streamMs ?? undefined}
    >
      <strong className="flash-deal__title">{t('interaction.flashDeal.title')}</strong>
      {view.phase === 'countdown' && (
        <span className="flash-deal__clock" data-testid="flash-deal-countdown">
          {t('interaction.flashDeal.startsIn', { time: formatDealClock(view.msLeft) })}
        </span>
      )}
      {view.phase === 'open' && (
        <>
          {dealPrice !== undefined && currency && (
            <span className="flash-deal__price">
              {money(dealPrice, currency)}
              {regularPrice !== undefined && (
                <s className="flash-deal__was">{money(regularPrice, currency)}</s>
              )}
            </span>
          )}
          <span className="flash-deal__clock" data-testid="flash-deal-ends-in">
            {t('interaction.flashDeal.endsIn', { time: formatDealClock(view.msLeft) })}
          </span>
          {deal.soldOut ? (
            <span className="flash-deal__sold-out">{t('interaction.flashDeal.soldOut')}</span>
          ) : (
            <button
              type="button"
              className="flash-deal__add"
              disabled={add.kind === 'adding' || add.kind === 'added'}
              onClick={() => void onAdd()}
            >
              {add.kind === 'added' ? t('interaction.flashDeal.added') : t('interaction.flashDeal.add')}
            </button>
          )}
        </>
      )}
      {view.phase === 'ended' && (
        <span className="flash-deal__ended">{t('interaction.flashDeal.ended')}</span>
      )}
      {add.kind === 'refused' && (
        <span className="flash-deal__refused" role="status">
          {add.code === 'deal_ended'
            ? t('interaction.flashDeal.ended')
            : add.code === 'deal_sold_out'
              ? t('interaction.flashDeal.soldOut')
              : add.code === 'deal_limit'
                ? t('interaction.flashDeal.limit', { count: deal.perShopperLimit })
                : t('interaction.flashDeal.failed')}
        </span>
      )}
    </aside>
  );
}
