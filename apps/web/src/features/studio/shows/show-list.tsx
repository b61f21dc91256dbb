import { SHOW_GROUPS, type ShowGroup } from '@vitrine/domain';
import type { ShowSummary } from '@vitrine/protocol';
import { useState } from 'react';
import { Link } from 'react-router';
import { useRoleIncludes, useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { Pager } from '../ui/pager.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { formatShowTime } from './show-time.ts';

const PAGE_SIZE = 25;
type Tab = ShowGroup | 'all';
const TABS: readonly Tab[] = ['upcoming', 'live', 'draft', 'past', 'all'];

/** The store's shows in tabs (upcoming, live, drafts, past, all), searchable, a page at a time. */
export function ShowList() {
  const { t, i18n } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const isHost = useRoleIncludes('host');
  const [tab, setTab] = useState<Tab>('upcoming');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const list = useStaffQuery('listShows', {
    params: { pageUid: store.pageUid },
    query: { group: tab === 'all' ? undefined : tab, search: search.trim(), offset, limit: PAGE_SIZE },
  });
  const counts = list.data?.counts;
  const total = list.data?.total ?? 0;
  const showPath = (show: ShowSummary) => (isHost ? show.uid : `${show.uid}/competitions`);

  return (
    <StudioPage
      title={t('list.title')}
      actions={
        isHost && (
          <Link to="new" className="studio-button studio-button--primary">
            {t('list.new')}
          </Link>
        )
      }
    >
      <div className="shows-tabs" role="tablist" aria-label={t('list.groups')}>
        {TABS.map((candidate) => (
          <button
            key={candidate}
            type="button"
            role="tab"
            aria-selected={tab === candidate}
            className="shows-tabs__tab"
            onClick={() => {
              setTab(candidate);
              setOffset(0);
            }}
          >
            {t(`groups.${candidate}`)}
            {counts && (
              <span className="shows-tabs__count">
                {candidate === 'all'
                  ? SHOW_GROUPS.reduce((sum, group) => sum + counts[group], 0)
                  : counts[candidate]}
              </span>
            )}
          </button>
        ))}
      </div>
      <div className="studio-toolbar">
        <SearchField
          label={t('list.search')}
          value={search}
          onChange={(typed) => {
            setSearch(typed);
            setOffset(0);
          }}
        />
      </div>
      {list.error && <ErrorNotice message={refusalText(list.error, t('list.failed'))} />}
      {list.loading && !list.data ? (
        <StudioLoading />
      ) : list.data && list.data.shows.length === 0 ? (
        <p className="studio-notice">{t(search ? 'list.noMatches' : `list.empty.${tab}`)}</p>
      ) : (
        list.data && (
          <div className="studio-table-wrap">
            <table className="studio-table">
              <thead>
                <tr>
                  <th scope="col">{t('list.name')}</th>
                  <th scope="col">{t('list.starts')}</th>
                  <th scope="col">{t('list.status')}</th>
                  <th scope="col" className="studio-table__number">
                    {t('list.products')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.shows.map((show) => (
                  <tr key={show.uid}>
                    <td>
                      <div className="shows-name">
                        {show.coverUrl ? (
                          <img className="shows-name__cover" src={show.coverUrl} alt="" />
                        ) : (
                          <span className="shows-name__cover shows-name__cover--empty" aria-hidden="true" />
                        )}
                        <Link to={showPath(show)}>{show.name}</Link>
                        {(show.group === 'live' || show.group === 'upcoming') && (
                          // Named by its row (the show's name beside it), so the show's own link keeps its name alone.
                          <Link to={`${show.uid}/control-room`} className="studio-small shows-room-link">
                            {t('list.controlRoom')}
                          </Link>
                        )}
                      </div>
                    </td>
                    <td>{formatShowTime(show.startsAt, show.timeZone, i18n.language)}</td>
                    <td>
                      <span className={`studio-badge shows-badge--${show.group}`}>
                        {t(`status.${show.group}`)}
                      </span>
                    </td>
                    <td className="studio-table__number">{show.productCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      )}
      {total > PAGE_SIZE && (
        <Pager
          rangeText={t('list.range', {
            from: offset + 1,
            to: Math.min(offset + PAGE_SIZE, total),
            total,
          })}
          onPrevious={offset > 0 ? () => setOffset(Math.max(0, offset - PAGE_SIZE)) : null}
          onNext={offset + PAGE_SIZE < total ? () => setOffset(offset + PAGE_SIZE) : null}
        />
      )}
    </StudioPage>
  );
}
