import { roleIncludes } from '@vitrine/domain';
import { Navigate, NavLink, Outlet, useNavigate, useParams } from 'react-router';
import { logout } from '../../lib/session.ts';
import { StudioStoreContext, useStudioSession, useStudioStore } from './studio-context.ts';
import { useStudioTranslation } from './studio-i18n.ts';
import { openingSection, STUDIO_SECTIONS } from './studio-sections.ts';
import { StudioLoading } from './ui/studio-loading.tsx';
import { useStaffQuery } from './use-staff-query.ts';

/**
 * A store's studio: the store and the member in the header, the sections their role may open in
 * the navigation (a side bar on wide screens, a row of tabs on tablets), the section below.
 */
export function StudioLayout() {
  const { t } = useStudioTranslation();
  const { pageUid } = useParams();
  const { session } = useStudioSession();
  const navigate = useNavigate();
  const store = session.stores.find((candidate) => candidate.pageUid === pageUid);

  if (!store)
    return (
      <main className="studio-centre">
        <div className="studio-card studio-card--narrow">
          <h1>{t('layout.notStaffTitle')}</h1>
          <p>{t('layout.notStaff')}</p>
          <NavLink to="/studio" className="studio-button">
            {t('layout.yourStores')}
          </NavLink>
        </div>
      </main>
    );

  const sections = STUDIO_SECTIONS.filter((section) => roleIncludes(store.role, section.role));
  const base = `/studio/${encodeURIComponent(store.pageUid)}`;
  return (
    <StudioStoreContext.Provider value={store}>
      <div className="studio-shell">
        <header className="studio-header">
          <a className="studio-skip" href="#studio-main">
            {t('layout.skipToContent')}
          </a>
          <div className="studio-header__store">
            {store.logo && <img className="studio-header__logo" src={store.logo} alt="" />}
            {session.stores.length > 1 ? (
              <label className="studio-header__switch">
                <span className="visually-hidden">{t('layout.switchStore')}</span>
                <select
                  value={store.pageUid}
                  onChange={(event) =>
                    void navigate(`/studio/${encodeURIComponent(event.target.value)}/shows`)
                  }
                >
                  {session.stores.map((candidate) => (
                    <option key={candidate.pageUid} value={candidate.pageUid}>
                      {candidate.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : (
              <span className="studio-header__name">{store.name}</span>
            )}
            <span className="studio-badge studio-badge--light">{t(`roles.${store.role}`)}</span>
          </div>
          <div className="studio-header__user">
            <a href={`/widget/${encodeURIComponent(store.pageUid)}`} target="_blank" rel="noreferrer">
              {t('layout.viewStorefront')}
            </a>
            <NavLink to="/studio/account" className="studio-header__who" title={t('layout.account')}>
              {session.user.name || session.user.email}
            </NavLink>
            <button
              type="button"
              className="studio-button studio-button--on-dark"
              onClick={() => void logout()}
            >
              {t('layout.signOut')}
            </button>
          </div>
        </header>
        <nav className="studio-nav" aria-label={t('layout.navigation')}>
          <ul>
            {sections.map((section) => (
              <li key={section.path}>
                <NavLink to={`${base}/${section.path}`} className="studio-nav__link">
                  {t(section.label)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="studio-main" className="studio-main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </StudioStoreContext.Provider>
  );
}

/**
 * `/studio/:pageUid` alone: the live show's Go live page while a show is live (for who may run
 * it), else the first section the member's role opens. A failed look opens the first section.
 */
export function FirstSection() {
  const store = useStudioStore();
  const live = useStaffQuery('listShows', {
    params: { pageUid: store.pageUid },
    query: { group: 'live', limit: 1 },
  });
  if (live.loading && !live.data && !live.error) return <StudioLoading />;
  const liveShow = live.data?.shows[0]?.uid ?? null;
  return <Navigate to={openingSection(store.role, liveShow)} replace />;
}
