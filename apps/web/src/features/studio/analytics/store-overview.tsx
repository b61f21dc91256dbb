import { useCallback, useMemo } from 'react';
import { Link } from 'react-router';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { useAnalyticsFormat } from './analytics-format.ts';
import { ScrollTable } from './scroll-table.tsx';
import { TimeChart } from './time-chart.tsx';

const WEEK_SECONDS = 7 * 24 * 60 * 60;
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
      {overview.error && (
        <p className="studio-notice studio-notice--error" role="alert">
          {refusalText(overview.error, t('overview.failed'))}
        </p>
      )}
      {data && (
        <>
          <div className="analytics-block">
            <h2 id="analytics-shows">{t('overview.shows')}</h2>
            <ScrollTable label={t('overview.shows')}>
              <table className="studio-table analytics-numbers">
                <caption className="analytics-visually-hidden">{t('overview.shows')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('overview.show')}</th>
                    <th scope="col">{t('overview.date')}</th>
                    <th scope="col">{t('overview.viewers')}</th>
                    <th scope="col">{t('overview.peak')}</th>
                    <th scope="col">{t('overview.watchTime')}</th>
                    <th scope="col">{t('overview.orders')}</th>
                    <th scope="col">{t('overview.conversion')}</th>
                    {data.revenueVisible && <th scope="col">{t('overview.revenue')}</th>}
                  </tr>
                </thead>
                <tbody>
                  {data.shows.map((show) => (
                    <tr key={show.showUid} data-show-uid={show.showUid}>
                      <th scope="row">
                        <Link to={`shows/${show.showUid}`}>{show.name}</Link>
                      </th>
                      <td>{format.dateTime(show.startsAt)}</td>
                      <td>{format.count(show.uniqueViewers)}</td>
                      <td>{format.count(show.peakViewers)}</td>
                      <td>{format.duration(show.watchSeconds)}</td>
                      <td>{format.count(show.orders)}</td>
                      <td>{format.percent(show.conversionRate)}</td>
                      {data.revenueVisible && <td>{format.amounts(show.revenue ?? [])}</td>}
                    </tr>
                  ))}
                </tbody>
              </table>
              {data.shows.length === 0 && <p className="studio-notice">{t('overview.none')}</p>}
            </ScrollTable>
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
                xLabel={t('overview.week')}
              />
              <ScrollTable label={t('overview.trendTitle')}>
                <table className="studio-table analytics-numbers">
                  <caption className="analytics-visually-hidden">{t('overview.trendTitle')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('overview.week')}</th>
                      <th scope="col">{t('overview.showCount')}</th>
                      <th scope="col">{t('overview.viewers')}</th>
                      <th scope="col">{t('overview.watchTime')}</th>
                      <th scope="col">{t('overview.orders')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {weeks.map((week) => (
                      <tr key={week.weekStart}>
                        <th scope="row">{format.date(week.weekStart)}</th>
                        <td>{format.count(week.shows)}</td>
                        <td>{format.count(week.viewers)}</td>
                        <td>{format.duration(week.watchSeconds)}</td>
                        <td>{format.count(week.orders)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollTable>
            </div>
          )}
        </>
      )}
    </StudioPage>
  );
}
