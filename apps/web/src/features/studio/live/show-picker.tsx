import type { ShowSummary } from '@vitrine/protocol';
import { Link } from 'react-router';
import { formatShowTime } from '../shows/show-time.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';

/** The shows a host can go live with: live ones first, then the upcoming ones, soonest first. */
export function ShowPicker() {
  const { t, i18n } = useStudioTranslation('studio-live');
  const store = useStudioStore();
  const params = { pageUid: store.pageUid };
  const live = useStaffQuery('listShows', { params, query: { group: 'live', limit: 25 } });
  const upcoming = useStaffQuery('listShows', { params, query: { group: 'upcoming', limit: 25 } });
  const shows: ShowSummary[] = [...(live.data?.shows ?? []), ...(upcoming.data?.shows ?? [])];
  const error = live.error ?? upcoming.error;
  return (
    <StudioPage title={t('picker.title')}>
      <p className="studio-muted">{t('picker.intro')}</p>
      {error && <ErrorNotice message={refusalText(error, t('picker.failed'))} />}
      {!live.data || !upcoming.data ? (
        !error && <StudioLoading />
      ) : shows.length === 0 ? (
        <p className="studio-notice">{t('picker.empty')}</p>
      ) : (
        <ul className="live-picker">
          {shows.map((show) => (
            <li key={show.uid} className="live-picker__show">
              <Link to={show.uid}>{show.name}</Link>
              <span className="studio-small studio-muted">
                {formatShowTime(show.startsAt, show.timeZone, i18n.language)}
              </span>
              {show.group === 'live' && (
                <span className="studio-badge live-state live-state--live">{t('state.live')}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </StudioPage>
  );
}
