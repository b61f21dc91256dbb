import { Outlet, ScrollRestoration, useNavigation } from 'react-router';

/** Shared frame of every route: resets scroll on navigation and shows a thin progress bar while loading. */
export function AppLayout() {
  const navigation = useNavigation();
  return (
    <>
      {navigation.state !== 'idle' && <div className="route-progress" role="progressbar" aria-busy="true" />}
      <Outlet />
      <ScrollRestoration getKey={(location) => location.pathname} />
    </>
  );
}
