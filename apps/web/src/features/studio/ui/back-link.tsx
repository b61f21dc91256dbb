import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * A studio page's way back: a quiet button up the URL's path (`..` one segment, `../..` two), not up
 * the route tree, whose parent route can lie further up than the page above this one.
 */
export function BackLink({ to, children }: { to: '..' | '../..'; children: ReactNode }) {
  return (
    <Link to={to} relative="path" className="studio-button studio-button--quiet">
      {children}
    </Link>
  );
}
