import { Component, type ReactNode, Suspense } from 'react';
import { logFailure } from '../../lib/debug.ts';

/**
 * Where an on-demand part of the player (chat panels, dialogs, competitions) renders: nothing (or
 * its `fallback`) while its code loads, and the same plus a console line if it fails to load or
 * render (a deploy replaced the files, the network dropped), so the video and the products keep
 * working.
 */
export class LazyPart extends Component<
  { name: string; children: ReactNode; fallback?: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    logFailure(`${this.props.name} could not be shown`, error);
  }

  override render(): ReactNode {
    const fallback = this.props.fallback ?? null;
    return this.state.failed ? fallback : <Suspense fallback={fallback}>{this.props.children}</Suspense>;
  }
}
