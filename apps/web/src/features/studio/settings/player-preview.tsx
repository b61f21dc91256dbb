import { readableInk } from '@vitrine/domain';
import type { PlayerSettings } from '@vitrine/protocol';
import type { CSSProperties } from 'react';
import { useStudioTranslation } from '../studio-i18n.ts';

/** Pixels of the page in the minimized-player sketch per pixel of a real page 1280 wide. */
const SKETCH_SCALE = 0.18;

/**
 * A sketch of the player as viewers will see it with these settings, redrawn on every edit:
 * colours, logo, the product overlay's side (or none), badges, prices, comments, branding, and
 * where the minimized player sits on the page. Drawn here rather than by the player itself, so
 * the studio never loads the player's bundle.
 */
export function PlayerPreview({
  settings,
  logo,
  storeName,
}: {
  settings: PlayerSettings;
  logo: string | null;
  storeName: string;
}) {
  const { t } = useStudioTranslation('studio-settings');
  const colours = {
    '--preview-primary': settings.primaryColor,
    '--preview-secondary': settings.secondaryColor,
    '--preview-primary-ink': readableInk(settings.primaryColor),
    '--preview-secondary-ink': readableInk(settings.secondaryColor),
  } as CSSProperties;
  const minimized = {
    [settings.minimizedHorizontalPosition]: `${Math.round(settings.minimizedHorizontalMargin * SKETCH_SCALE)}px`,
    [settings.minimizedVerticalPosition]: `${Math.round(settings.minimizedVerticalMargin * SKETCH_SCALE)}px`,
  } as CSSProperties;
  return (
    <figure className="player-preview" style={colours} data-testid="player-preview">
      <figcaption className="studio-small studio-muted">{t('preview.caption')}</figcaption>
      <div
        className="player-preview__screen"
        role="img"
        aria-label={t('preview.label', { store: storeName })}
      >
        <div className="player-preview__top">
          {logo ? (
            <img className="player-preview__logo" src={logo} alt="" />
          ) : (
            <span className="player-preview__logo player-preview__logo--none" aria-hidden="true">
              {storeName.slice(0, 1)}
            </span>
          )}
          <span className="player-preview__name">{storeName}</span>
          <span className="player-preview__live">{t('preview.live')}</span>
        </div>
        {settings.showPurchaseBadges && (
          <span className="player-preview__toast">{t('preview.purchase')}</span>
        )}
        {!settings.productOverlayInvisible && (
          <div
            className={`player-preview__product player-preview__product--${settings.productOverlayPosition}`}
            data-testid="preview-product"
          >
            {settings.showPopularityBadges && (
              <span className="player-preview__badge">{t('preview.popular')}</span>
            )}
            <span className="player-preview__product-image" aria-hidden="true" />
            <span className="player-preview__product-name">{t('preview.product')}</span>
            {!settings.hidePrices && <span className="player-preview__price">{t('preview.price')}</span>}
            <span className="player-preview__buy" data-testid="preview-buy">
              {t('preview.buy')}
            </span>
          </div>
        )}
        <div className="player-preview__bottom">
          {settings.allowCommentsOnLive ? (
            <span className="player-preview__comment">{t('preview.comment')}</span>
          ) : (
            <span className="player-preview__comment player-preview__comment--off">
              {t('preview.commentsOff')}
            </span>
          )}
          <span className="player-preview__heart" aria-hidden="true">
            ♥
          </span>
        </div>
        {settings.showVitrineBranding && (
          <span className="player-preview__branding">{t('preview.branding')}</span>
        )}
      </div>
      {settings.minimizedPlayer && (
        <div className="player-preview__page" aria-label={t('preview.minimizedLabel')} role="img">
          <span className="player-preview__mini" style={minimized} />
        </div>
      )}
    </figure>
  );
}
