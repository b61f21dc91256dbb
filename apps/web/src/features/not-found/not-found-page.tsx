import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { logFailure } from '../../lib/debug.ts';

/** Shown for any path outside the route table, for /auth, and for ids that do not exist (spec §2). */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="message-page" data-page="not-found">
      <p className="message-page__code" aria-hidden="true">
        404
      </p>
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <Link className="button" to="/">
        {t('notFound.home')}
      </Link>
    </main>
  );
}

/** While the first page's loaders run (React Router's hydrate fallback), instead of a blank page. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <p className="page-loading" role="status">
      {t('app.loading')}
    </p>
  );
}

/** A route's loader failed: missing things show not-found, anything else "Could not load content." */
export function RouteErrorPage() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  logFailure('route failed', error);
  return (
    <main className="message-page" data-page="error">
      <h1>{t('app.couldNotLoad')}</h1>
      <Link className="button" to="/">
        {t('notFound.home')}
      </Link>
    </main>
  );
}
