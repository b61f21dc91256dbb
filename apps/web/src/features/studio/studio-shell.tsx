import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { StudioLoading } from './ui/studio-loading.tsx';
import './studio.css';

export { ResetPasswordPage } from './reset-password-page.tsx';
export { SetupPage } from './setup-page.tsx';
export { StudioAccount } from './studio-account.tsx';
export { StudioGate } from './studio-gate.tsx';
export { StudioHome } from './studio-home.tsx';
export { FirstSection, StudioLayout } from './studio-layout.tsx';
export { StudioLinkPage } from './studio-link-page.tsx';

/** The frame of every studio page: its look, and a spinner while a page's code or texts load. */
export function StudioFrame() {
  return (
    <div className="studio">
      <Suspense fallback={<StudioLoading />}>
        <Outlet />
      </Suspense>
    </div>
  );
}
