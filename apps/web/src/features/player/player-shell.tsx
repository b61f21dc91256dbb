import type { PlayerFit } from '@vitrine/domain';
import { type CSSProperties, type MouseEventHandler, type ReactNode, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** A sheet over the player (phones; share and cart cards on wide screens). */
export interface PlayerSheet {
  title: string;
  body: ReactNode;
  onClose(): void;
  /** Sees clicks in the sheet's body first (tracking a begun checkout). */
  onBodyClickCapture?: MouseEventHandler<HTMLElement>;
}

export interface PlayerShellProps {
  fit: PlayerFit;
  /** The root element's style (theme colours) and data attributes (layout flags, state; undefined: none). */
  style: CSSProperties;
  data: Record<`data-${string}`, string | undefined>;
  /** The video. */
  video: ReactNode;
  /** What floats over the video: badges, notices, the cart button, the now-showing card. */
  overVideo: ReactNode;
  /** The phone's side menu's buttons. */
  menu: ReactNode;
  /** The panel beside the video: its name, tab buttons, the open tab's body and what goes under it. */
  panelLabel: string;
  tabs: ReactNode;
  panel: ReactNode;
  panelFooter: ReactNode;
  /** A dialog over everything (login and rename prompts). */
  dialog: ReactNode;
  sheet: PlayerSheet | null;
}

/**
 * The show player's layout (spec §2): the video with what floats over it and the phone menu, the
 * panel with its tabs beside it, a dialog and a sheet. It places what it is given; the player
 * decides what that is. `fit` chooses the phone or desktop layout (data-layout, for CSS) and
 * the height that fits a short host window.
 */
export function PlayerShell(props: PlayerShellProps) {
  const { t } = useTranslation();
  const { fit, sheet } = props;
  const style = fit.maxHeight === null ? props.style : { ...props.style, maxHeight: `${fit.maxHeight}px` };
  useFocusReturn(sheet !== null);
  // The player is the page's main content (one main landmark; the show's title is its h1).
  return (
    <main
      className="player"
      style={style}
      data-layout={fit.layout}
      data-fitted={String(fit.maxHeight !== null)}
      {...props.data}
    >
      <div className="player__stage">
        {props.video}
        {props.overVideo}
        <nav className="mobile-menu" aria-label={t('player.menu')}>
          {props.menu}
        </nav>
      </div>

      <section className="player__panel" aria-label={props.panelLabel}>
        <div className="player__tabs" role="tablist">
          {props.tabs}
        </div>
        <div className="player__panel-body" role="tabpanel">
          {props.panel}
        </div>
        {props.panelFooter}
      </section>

      {props.dialog}
      {sheet && (
        <section className="mobile-sheet" aria-label={sheet.title}>
          <header className="mobile-sheet__header">
            <h2>{sheet.title}</h2>
            <button type="button" className="link-button" onClick={sheet.onClose}>
              {t('player.close')}
            </button>
          </header>
          <div className="mobile-sheet__body" onClickCapture={sheet.onBodyClickCapture}>
            {sheet.body}
          </div>
        </section>
      )}
    </main>
  );
}

/**
 * Gives the focus back to what had it when the sheet opened (its menu button) once the sheet
 * closes (its close button, Escape) and took the focus with it, so a keyboard user goes on from
 * there instead of from the top of the page.
 */
function useFocusReturn(sheetOpen: boolean) {
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (sheetOpen) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      return;
    }
    const back = opener.current;
    opener.current = null;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (back?.isConnected && lost) back.focus();
  }, [sheetOpen]);
}
