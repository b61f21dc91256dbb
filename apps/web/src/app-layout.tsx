import { useLayoutEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigate, useNavigation } from 'react-router';
import { currentEmbedParams, withEmbedQuery } from './features/host-bridge/embed-params.ts';

/**
 * Shared frame of every route: resets scroll on navigation and shows a thin progress bar while
 * loading. The bar is decoration (hidden from assistive technology): it sits outside every
 * landmark and has no name, and the page it leads to announces itself when it arrives.
 */
export function AppLayout() {
  const navigation = useNavigation();
  useKeepEmbedQuery();
  return (
    <>
      {navigation.state !== 'idle' && <div className="route-progress" aria-hidden="true" />}
      <Outlet />
      <ScrollRestoration getKey={(location) => location.pathname} />
    </>
  );
}

/**
 * Inside an embedded player every address keeps the embed parameters (issue 13): links and
 * redirects are written without them, and a page reloaded or opened from such an address would
 * no longer talk to the host page (its basket, its close button).
 */
function useKeepEmbedQuery() {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    const params = currentEmbedParams();
    if (params === null) return;
    const search = withEmbedQuery(location.search, params);
    if (search === null) return;
    void navigate(
      { pathname: location.pathname, search, hash: location.hash },
      { replace: true, state: location.state },
    );
  }, [location, navigate]);
}
