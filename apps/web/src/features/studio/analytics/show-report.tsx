import type { RevenueBreakdown, ShowAnalytics } from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { saveCsv } from '../orders/csv-download.ts';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { BackLink } from '../ui/back-link.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { useAnalyticsFormat } from './analytics-format.ts';
import { NumbersTable, revenueColumn } from './numbers-table.tsx';
import { TimeChart } from './time-chart.tsx';

/** Retention is listed every this many minutes (the chart has every minute). */
const RETENTION_STEP = 5;
const PERCENT_RANGE: [number, number] = [0, 100];
/** Retention ticks at whole minutes. */
const MINUTE_INCRS = [1, 2, 5, 10, 15, 30, 60, 120];
/** The viewers chart (x in seconds) ticks at whole minutes, as its labels show. */
const CLOCK_INCRS = [1, 2, 5, 10, 15, 30, 60, 120, 240].map((minutes) => minutes * 60);
const MINUTE = 60_000;
/** Gaps between minutes are filled with zeros up to this many minutes (a day); replays days apart are not. */
const MAX_FILLED_MINUTES = 24 * 60;

/**
 * The viewers chart's data in seconds: minutes without anyone are zeros (the rollup keeps only
 * minutes with something in them), and the span covers the product chapters too.
 */
function viewerSeries(data: ShowAnalytics, liveLabel: string, replayLabel: string) {
  const byMinute = new Map(data.minutes.map((minute) => [minute.minute, minute]));
  const first = data.minutes[0]?.minute ?? 0;
  const last = data.minutes.at(-1)?.minute ?? 0;
  const minutes =
    (last - first) / MINUTE <= MAX_FILLED_MINUTES
      ? Array.from({ length: (last - first) / MINUTE + 1 }, (_, index) => first + index * MINUTE)
      : data.minutes.map((minute) => minute.minute);
  const starts = [first, ...data.chapters.map((chapter) => chapter.start)];
  const ends = [last + MINUTE, ...data.chapters.map((chapter) => chapter.end)];
  return {
    x: minutes.map((minute) => minute / 1000),
    series: [
      {
        label: liveLabel,
        values: minutes.map((minute) => byMinute.get(minute)?.viewersLive ?? 0),
        color: '#1f6feb',
      },
      {
        label: replayLabel,
        values: minutes.map((minute) => byMinute.get(minute)?.viewersReplay ?? 0),
        color: '#8250df',
      },
    ],
    bands: data.chapters.map((chapter) => ({
      from: chapter.start / 1000,
      to: chapter.end / 1000,
      label: chapter.name,
    })),
    range: [Math.min(...starts) / 1000, Math.max(...ends) / 1000] as [number, number],
  };
}

/**
 * One show's report: figures, viewers per minute with the products' chapters as bands, retention,
 * the per-minute numbers and the funnel per product, each chart with its table; CSV exports.
 */
export function ShowReportPage() {
  const { t } = useStudioTranslation('studio-analytics');
  const { pageUid } = useStudioStore();
  const showUid = useParams().showUid ?? '';
  const report = useStaffQuery('getShowAnalytics', { params: { pageUid, showUid } });
  const [notice, setNotice] = useState<string | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const data = report.data;

  const refresh = async () => {
    setRefreshing(true);
    try {
      await staffCall('refreshAnalytics', { params: { pageUid } });
      report.reload();
      setNotice(null);
    } catch (error) {
      setNotice(refusalText(error, t('report.failed')));
    } finally {
      setRefreshing(false);
    }
  };
  const exportCsv = async (kind: 'minutes' | 'funnel' | 'revenue' | 'events') => {
    try {
      saveCsv(
        kind === 'events'
          ? await staffCall('exportShowEvents', { params: { pageUid, showUid } })
          : await staffCall('exportShowAnalytics', { params: { pageUid, showUid }, query: { kind } }),
      );
      setNotice(null);
    } catch (error) {
      setNotice(refusalText(error, t('report.exportFailed')));
    }
  };

  return (
    <StudioPage
      title={data ? data.show.name : t('overview.title')}
      actions={
        <>
          <BackLink to="../..">{t('report.back')}</BackLink>
          <button
            type="button"
            className="studio-button"
            disabled={refreshing}
            onClick={() => void refresh()}
          >
            {t('report.refresh')}
          </button>
        </>
      }
    >
      <ErrorNotice message={notice} />
      {report.error && <ErrorNotice message={refusalText(report.error, t('report.failed'))} />}
      {data && <Report data={data} onExport={(kind) => void exportCsv(kind)} />}
    </StudioPage>
  );
}

function Report({
  data,
  onExport,
}: {
  data: ShowAnalytics;
  onExport: (kind: 'minutes' | 'funnel' | 'revenue' | 'events') => void;
}) {
  const { t } = useStudioTranslation('studio-analytics');
  const format = useAnalyticsFormat();
  const { totals } = data;
  const viewersChart = useMemo(() => viewerSeries(data, t('report.live'), t('report.replay')), [data, t]);
  const retentionChart = useMemo(
    () => ({
      x: data.retention.map((_share, minute) => minute),
      series: [
        { label: t('report.share'), values: data.retention.map((share) => share * 100), color: '#1a7f37' },
      ],
      range: [0, Math.max(1, data.retention.length - 1)] as [number, number],
    }),
    [data, t],
  );
  const retentionRows = data.retention
    .map((share, minute) => ({ minute, share }))
    .filter((row) => row.minute % RETENTION_STEP === 0 || row.minute === data.retention.length - 1);
  const percentAxis = useMemo(() => (value: number) => `${value}%`, []);
  const clock = useMemo(() => (seconds: number) => format.time(seconds * 1000), [format]);

  return (
    <>
      <p className="studio-muted">
        {data.rolledUpAt === null
          ? t('report.notYet')
          : t('report.updated', { time: format.dateTime(data.rolledUpAt) })}
      </p>
      <div className="analytics-toolbar">
        <button type="button" className="studio-button" onClick={() => onExport('minutes')}>
          {t('report.exportMinutes')}
        </button>
        <button type="button" className="studio-button" onClick={() => onExport('funnel')}>
          {t('report.exportFunnel')}
        </button>
        {data.revenueVisible && (
          <button type="button" className="studio-button" onClick={() => onExport('revenue')}>
            {t('report.exportRevenue')}
          </button>
        )}
        {data.revenueVisible && (
          <button type="button" className="studio-button" onClick={() => onExport('events')}>
            {t('report.exportEvents')}
          </button>
        )}
      </div>

      <h2 className="studio-visually-hidden">{t('report.totals')}</h2>
      <dl className="analytics-figures" data-testid="analytics-totals">
        <Figure label={t('report.uniqueViewers')} value={format.count(totals.uniqueViewers)}>
          {t('report.liveReplay', {
            live: format.count(totals.liveViewers),
            replay: format.count(totals.replayViewers),
          })}
        </Figure>
        <Figure label={t('report.peakViewers')} value={format.count(totals.peakViewers)}>
          {totals.peakAt !== null && t('report.peakAt', { time: format.time(totals.peakAt) })}
        </Figure>
        <Figure label={t('report.averageWatch')} value={format.duration(totals.averageWatchSeconds)} />
        <Figure label={t('report.comments')} value={format.count(totals.comments)} />
        <Figure label={t('report.reactions')} value={format.count(totals.reactions)} />
        <Figure label={t('report.competitionEntries')} value={format.count(totals.competitionEntries)} />
        <Figure label={t('report.adds')} value={format.count(totals.adds)} />
        <Figure label={t('report.orders')} value={format.count(totals.orders)}>
          {t('report.paidOrders', { paid: format.count(totals.paidOrders) })}
        </Figure>
        <Figure label={t('report.conversion')} value={format.percent(totals.conversionRate)} />
        {totals.revenue && (
          <Figure label={t('report.revenue')} value={format.amounts(totals.revenue)}>
            {t('report.revenueNote')}
          </Figure>
        )}
        {totals.averageOrderValue && (
          <Figure label={t('report.averageOrderValue')} value={format.amounts(totals.averageOrderValue)} />
        )}
      </dl>
      {!data.revenueVisible && <p className="studio-muted">{t('report.revenueHidden')}</p>}
      {totals.revenueBreakdown && totals.revenueBreakdown.length > 0 && (
        <RevenueTable rows={totals.revenueBreakdown} />
      )}

      <div className="analytics-block">
        <h2 id="analytics-viewers">{t('report.viewersChart')}</h2>
        <p className="studio-muted">{t('report.viewersChartSummary')}</p>
        {data.minutes.length === 0 ? (
          <p className="studio-notice">{t('report.noMinutes')}</p>
        ) : (
          <TimeChart
            x={viewersChart.x}
            series={viewersChart.series}
            bands={viewersChart.bands}
            xRange={viewersChart.range}
            xLabel={t('report.minute')}
            xFormat={clock}
            xIncrs={CLOCK_INCRS}
          />
        )}
        {data.chapters.length > 0 && (
          <>
            <h3 className="studio-field__label">{t('report.chapters')}</h3>
            <ol className="analytics-chapters">
              {data.chapters.map((chapter) => (
                <li key={`${chapter.productUid}-${chapter.start}`}>
                  {format.time(chapter.start)}–{format.time(chapter.end)} {chapter.name}
                </li>
              ))}
            </ol>
          </>
        )}
        <details className="analytics-details" open={data.minutes.length <= 30}>
          <summary>{t('report.minutes')}</summary>
          <NumbersTable
            title={t('report.minutes')}
            testId="analytics-minutes"
            columns={[
              { header: t('report.minute'), cell: (minute) => format.time(minute.minute) },
              { header: t('report.live'), cell: (minute) => format.count(minute.viewersLive) },
              { header: t('report.replay'), cell: (minute) => format.count(minute.viewersReplay) },
              { header: t('report.productViews'), cell: (minute) => format.count(minute.productViews) },
              { header: t('report.watchSeconds'), cell: (minute) => format.duration(minute.watchSeconds) },
              { header: t('report.comments'), cell: (minute) => format.count(minute.comments) },
              { header: t('report.reactions'), cell: (minute) => format.count(minute.reactions) },
              {
                header: t('report.competitionEntries'),
                cell: (minute) => format.count(minute.competitionEntries),
              },
              { header: t('report.details'), cell: (minute) => format.count(minute.detailsOpened) },
              { header: t('report.adds'), cell: (minute) => format.count(minute.adds) },
              { header: t('report.orders'), cell: (minute) => format.count(minute.orders) },
              revenueColumn(data.revenueVisible, t('report.revenue'), format.amounts),
            ]}
            rows={data.minutes}
            rowKey={(minute) => minute.minute}
            rowData={(minute) => ({ 'data-minute': minute.minute })}
          />
        </details>
      </div>

      <div className="analytics-block">
        <h2 id="analytics-funnel">{t('report.funnel')}</h2>
        <p className="studio-muted">{t('report.funnelSummary')}</p>
        <NumbersTable
          title={t('report.funnel')}
          testId="analytics-funnel"
          columns={[
            { header: t('report.product'), cell: (row) => row.name },
            { header: t('report.presented'), cell: (row) => format.count(row.presented) },
            { header: t('report.detailsOpened'), cell: (row) => format.count(row.detailsOpened) },
            { header: t('report.added'), cell: (row) => format.count(row.added) },
            { header: t('report.ordered'), cell: (row) => format.count(row.ordered) },
            { header: t('report.paid'), cell: (row) => format.count(row.paid) },
            revenueColumn(data.revenueVisible, t('report.revenue'), format.amounts),
          ]}
          rows={data.funnel}
          rowKey={(row) => row.productUid}
          rowData={(row) => ({ 'data-product-uid': row.productUid })}
          empty={t('report.noProducts')}
        />
      </div>

      {/* Flash deals hook (issue 30 §3): each deal's views, adds, orders and revenue. */}
      {(data.flashDeals?.length ?? 0) > 0 && (
        <div className="analytics-block">
          <h2 id="analytics-flash-deals">{t('report.flashDeals')}</h2>
          <p className="studio-muted">{t('report.flashDealsSummary')}</p>
          <NumbersTable
            title={t('report.flashDeals')}
            testId="analytics-flash-deals"
            columns={[
              { header: t('report.product'), cell: (row) => row.productName },
              { header: t('report.dealViews'), cell: (row) => format.count(row.views) },
              { header: t('report.added'), cell: (row) => format.count(row.adds) },
              { header: t('report.dealUnits'), cell: (row) => format.count(row.units) },
              { header: t('report.ordered'), cell: (row) => format.count(row.orders) },
              revenueColumn(data.revenueVisible, t('report.revenue'), format.amounts),
            ]}
            rows={data.flashDeals ?? []}
            rowKey={(row) => row.uid}
          />
        </div>
      )}

      <div className="analytics-block">
        <h2 id="analytics-retention">{t('report.retentionChart')}</h2>
        <p className="studio-muted">{t('report.retentionSummary')}</p>
        {data.retention.length > 1 && (
          <TimeChart
            x={retentionChart.x}
            series={retentionChart.series}
            time={false}
            height={180}
            yFormat={percentAxis}
            xRange={retentionChart.range}
            yRange={PERCENT_RANGE}
            xIncrs={MINUTE_INCRS}
            xLabel={t('report.minute')}
          />
        )}
        <NumbersTable
          title={t('report.retentionChart')}
          columns={[
            {
              header: t('report.minute'),
              cell: (row) => t('report.afterMinutes', { minutes: row.minute }),
            },
            { header: t('report.share'), cell: (row) => format.percent(row.share) },
          ]}
          rows={retentionRows}
          rowKey={(row) => row.minute}
        />
      </div>
    </>
  );
}

function Figure({ label, value, children }: { label: string; value: string; children?: React.ReactNode }) {
  return (
    <div className="analytics-figure">
      <dt>{label}</dt>
      <dd>
        {value}
        {children && <span className="analytics-figure__note">{children}</span>}
      </dd>
    </div>
  );
}

/**
 * Gross, refunds and net, with and without freight, per currency (issue 33 item 12): each figure
 * says what it counts, so nothing is left out without saying so.
 */
function RevenueTable({ rows }: { rows: RevenueBreakdown[] }) {
  const { t } = useStudioTranslation('studio-analytics');
  const format = useAnalyticsFormat();
  const money = (amount: number, currency: string) =>
    format.amounts([{ currency: currency as Currency, amount }]);
  const columns = ['items', 'freight', 'gross', 'refunds', 'net', 'netWithoutFreight'] as const;
  return (
    <div className="analytics-block">
      <h2 id="analytics-revenue">{t('report.revenueTitle')}</h2>
      <p className="studio-muted">{t('report.revenueSummary')}</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (WCAG 2.1.1). */}
      <section className="studio-table-wrap" aria-labelledby="analytics-revenue" tabIndex={0}>
        <table className="studio-table" aria-labelledby="analytics-revenue" data-testid="analytics-revenue">
          <thead>
            <tr>
              <th scope="col">{t('report.currency')}</th>
              {columns.map((column) => (
                <th key={column} scope="col" className="studio-table__number">
                  {t(`report.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.currency}>
                <th scope="row">{row.currency}</th>
                {columns.map((column) => (
                  <td key={column} className="studio-table__number">
                    {column === 'net' ? (
                      <strong>{money(row[column], row.currency)}</strong>
                    ) : (
                      money(row[column], row.currency)
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
