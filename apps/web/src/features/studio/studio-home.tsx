import { Link, Navigate } from 'react-router';
import { logout } from '../../lib/session.ts';
import { useStudioSession } from './studio-context.ts';
import { useStudioTranslation } from './studio-i18n.ts';

/** /studio: straight into the member's store, a choice when they have several, help when none. */
export function StudioHome() {
  const { t } = useStudioTranslation();
  const { session } = useStudioSession();
  const [only] = session.stores;
  if (session.stores.length === 1 && only)
    // The store's own address picks where it opens (Live while a show is live).
    return <Navigate to={`/studio/${encodeURIComponent(only.pageUid)}`} replace />;
  return (
    <main className="studio-centre">
      <div className="studio-card studio-card--narrow">
        <h1>{t('home.title')}</h1>
        {session.stores.length === 0 ? (
          <>
            <p>{t('home.noStores', { email: session.user.email ?? session.user.name })}</p>
            <p className="studio-muted">{t('home.noStoresHelp')}</p>
          </>
        ) : (
          <>
            <p>{t('home.pickStore')}</p>
            <ul className="studio-store-list">
              {session.stores.map((store) => (
                <li key={store.pageUid}>
                  <Link
                    to={`/studio/${encodeURIComponent(store.pageUid)}`}
                    className="studio-store-list__item"
                  >
                    {store.logo && <img src={store.logo} alt="" className="studio-store-list__logo" />}
                    <span>{store.name}</span>
                    <span className="studio-badge">{t(`roles.${store.role}`)}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
        <button type="button" className="studio-button studio-button--quiet" onClick={() => void logout()}>
          {t('layout.signOut')}
        </button>
      </div>
    </main>
  );
}
