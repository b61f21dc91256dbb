import { formatMoney } from '@vitrine/domain';
import type { ControlRoomLineupItem, ControlRoomStats } from '@vitrine/protocol';
import type { Locale } from '@vitrine/protocol/vocabulary';
import { useStudioTranslation } from '../studio-i18n.ts';

/** Seconds with one decimal, for delays. */
const seconds = (ms: number, language: string) =>
  new Intl.NumberFormat(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(ms / 1000);

/**
 * The room's live numbers (refreshed every second by the page): audience, chat pace, the shop's
 * figures (revenue only when the server sent it) and the presented products with theirs.
 */
export function RoomNumbers({
  stats,
  lineup,
}: {
  stats: ControlRoomStats;
  lineup: readonly ControlRoomLineupItem[];
}) {
  const { t, i18n } = useStudioTranslation('studio-control-room');
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  const figures: { key: string; label: string; value: string }[] = [
    { key: 'viewers', label: t('numbers.viewers'), value: number(stats.viewers) },
    { key: 'peak', label: t('numbers.peak'), value: number(stats.peakViewers) },
    { key: 'comments', label: t('numbers.commentsPerMinute'), value: number(stats.commentsPerMinute) },
    { key: 'reactions', label: t('numbers.reactionsPerMinute'), value: number(stats.reactionsPerMinute) },
    { key: 'adds', label: t('numbers.addsToCart'), value: number(stats.addsToCart) },
    { key: 'orders', label: t('numbers.orders'), value: number(stats.orders) },
    ...(stats.revenue === null
      ? []
      : [
          {
            key: 'revenue',
            label: t('numbers.revenue'),
            value:
              stats.revenue.length === 0
                ? number(0)
                : stats.revenue
                    .map((amount) => formatMoney(amount.amount, amount.currency, i18n.language as Locale))
                    .join(' · '),
          },
        ]),
    {
      key: 'delay',
      label: t('numbers.medianDelay'),
      value:
        stats.medianDelayMs === null
          ? '–'
          : t('numbers.delayValue', { seconds: seconds(stats.medianDelayMs, i18n.language) }),
    },
  ];
  const names = new Map(lineup.map((item) => [item.uid, item.name]));
  return (
    <div className="room-numbers">
      <dl className="room-numbers__grid">
        {figures.map((figure) => (
          <div key={figure.key} className="room-numbers__figure" data-figure={figure.key}>
            <dt className="studio-small studio-muted">{figure.label}</dt>
            <dd className="room-numbers__value">{figure.value}</dd>
          </div>
        ))}
      </dl>
      {stats.medianDelayMs !== null && (
        <p className="studio-small studio-muted">
          {t('numbers.delayReports', { count: stats.delayReports })}
        </p>
      )}
      <h3 className="studio-small room-subtitle">{t('numbers.presentedTitle')}</h3>
      {stats.presented.length === 0 ? (
        <p className="studio-small studio-muted">{t('numbers.nothingPresented')}</p>
      ) : (
        <ul className="room-numbers__presented">
          {stats.presented.map((presented) => (
            <li key={presented.uid} data-presented-stats={presented.uid}>
              <strong>{names.get(presented.uid) ?? presented.uid}</strong>{' '}
              <span className="studio-small studio-muted">
                {t('numbers.productFigures', {
                  adds: number(presented.addsToCart),
                  orders: number(presented.orders),
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
