import { useCallback, useMemo } from 'react';
import { Link } from 'react-router';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { useAnalyticsFormat } from './analytics-format.ts';
import { NumbersTable, revenueColumn } from './numbers-table.tsx';
import { TimeChart } from './time-chart.tsx';
import { WEEK_SECONDS, weekAxisRange, weekTicks } from './week-axis.ts';

/** The weeks chart ticks at whole weeks. */
const WEEK_INCRS = [1, 2, 4, 8, 13, 26, 52].map((weeks) => weeks * WEEK_SECONDS);

/** The store's shows side by side (viewers, watch time, orders, conversion, revenue) and the weeks' trend. */
export function StoreOverviewPage() {
  const { t } = useStudioTranslation('studio-analytics');
  const format = useAnalyticsFormat();
  const { pageUid } = useStudioStore();
  const overview = useStaffQuery('getStoreAnalytics', { params: { pageUid } });
  const data = overview.data;
  const weeks = data?.weeks ?? [];
  const weekLabel = useCallback((seconds: number) => format.date(seconds * 1000), [format]);
  const chart = useMemo(
    () => ({
      x: weeks.map((week) => week.weekStart / 1000),
      range: weekAxisRange(weeks.map((week) => week.weekStart / 1000)),
      splits: (widthPx: number) =>
        weekTicks(
          weeks.map((week) => week.weekStart / 1000),
          widthPx,
        ),
      series: [
        { label: t('overview.viewers'), values: weeks.map((week) => week.viewers), color: '#1f6feb' },
        { label: t('overview.orders'), values: weeks.map((week) => week.orders), color: '#b45309' },
      ],
    }),
    [weeks, t],
  );

  return (
    <StudioPage title={t('overview.title')}>
      <p className="studio-muted">{t('overview.intro')}</p>
      {overview.error && <ErrorNotice message={refusalText(overview.error, t('overview.failed'))} />}
      {data && (
        <>
          <div className="analytics-block">
            <h2 id="analytics-shows">{t('overview.shows')}</h2>
            <NumbersTable
              title={t('overview.shows')}
              columns={[
                {
                  header: t('overview.show'),
                  cell: (show) => <Link to={`shows/${show.showUid}`}>{show.name}</Link>,
                },
                { header: t('overview.date'), cell: (show) => format.dateTime(show.startsAt) },
                { header: t('overview.viewers'), cell: (show) => format.count(show.uniqueViewers) },
                { header: t('overview.peak'), cell: (show) => format.count(show.peakViewers) },
                { header: t('overview.watchTime'), cell: (show) => format.duration(show.watchSeconds) },
                { header: t('overview.orders'), cell: (show) => format.count(show.orders) },
                { header: t('overview.conversion'), cell: (show) => format.percent(show.conversionRate) },
                revenueColumn(data.revenueVisible, t('overview.revenue'), format.amounts),
              ]}
              rows={data.shows}
              rowKey={(show) => show.showUid}
              rowData={(show) => ({ 'data-show-uid': show.showUid })}
              empty={t('overview.none')}
            />
          </div>
          {weeks.length > 0 && (
            <div className="analytics-block">
              <h2 id="analytics-weeks">{t('overview.trendTitle')}</h2>
              <p className="studio-muted">{t('overview.trendSummary')}</p>
              <TimeChart
                x={chart.x}
                series={chart.series}
                height={200}
                xIncrs={WEEK_INCRS}
                xFormat={weekLabel}
                xSplits={chart.splits}
                {...(chart.range ? { xRange: chart.range } : {})}
                xLabel={t('overview.week')}
              />
              <NumbersTable
                title={t('overview.trendTitle')}
                columns={[
                  { header: t('overview.week'), cell: (week) => format.date(week.weekStart) },
                  { header: t('overview.showCount'), cell: (week) => format.count(week.shows) },
                  { header: t('overview.viewers'), cell: (week) => format.count(week.viewers) },
                  { header: t('overview.watchTime'), cell: (week) => format.duration(week.watchSeconds) },
                  { header: t('overview.orders'), cell: (week) => format.count(week.orders) },
                ]}
                rows={weeks}
                rowKey={(week) => week.weekStart}
              />
            </div>
          )}
        </>
      )}
    </StudioPage>
  );
}
