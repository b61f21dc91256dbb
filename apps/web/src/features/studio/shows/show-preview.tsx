import { formatMoney, showGroup } from '@vitrine/domain';
import type { Locale } from '@vitrine/protocol/vocabulary';
import { useParams } from 'react-router';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { BackLink } from '../ui/back-link.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { formatShowTime } from './show-time.ts';

/**
 * `/studio/:pageUid/shows/:showUid/preview`: the show as viewers will get it (its card on the
 * storefront and its products in order), drafts included. It reads through a staff-only call,
 * so nothing about a draft is ever served to the public.
 */
export function ShowPreview() {
  const { showUid = '' } = useParams();
  const store = useStudioStore();
  const { t, i18n } = useStudioTranslation('studio-shows');
  const preview = useStaffQuery('previewShow', { params: { pageUid: store.pageUid, showUid } });
  const back = <BackLink to="..">{t('preview.back')}</BackLink>;
  if (preview.error)
    return (
      <StudioPage title={t('preview.title')} actions={back}>
        <ErrorNotice message={refusalText(preview.error, t('preview.failed'))} />
      </StudioPage>
    );
  if (!preview.data) return <StudioLoading />;
  const { event, products } = preview.data;
  const currency = event.event.storeInfo.currency;
  return (
    <StudioPage title={t('preview.title')} actions={back}>
      {event.event.status === 'draft' && <p className="studio-notice">{t('preview.draft')}</p>}
      <article className="shows-preview">
        <div className="shows-preview__cover">
          {event.event.coverPhotoPath ? (
            <img src={event.event.coverPhotoPath} alt="" />
          ) : (
            <span className="shows-preview__placeholder" aria-hidden="true" />
          )}
          <span className="shows-preview__status">
            {t(`status.${showGroup('public', event.event.currentStatus)}`)}
          </span>
        </div>
        <div className="shows-preview__body">
          <h2>{event.event.eventName}</h2>
          <p className="studio-muted">
            {formatShowTime(
              event.event.eventStartTimestamp,
              Intl.DateTimeFormat().resolvedOptions().timeZone,
              i18n.language,
            )}
          </p>
          {event.campaign.deadline !== null && (
            <p className="studio-small">
              {t('preview.deadline', {
                time: formatShowTime(
                  event.campaign.deadline,
                  Intl.DateTimeFormat().resolvedOptions().timeZone,
                  i18n.language,
                ),
              })}
            </p>
          )}
          <h3>{t('preview.products', { count: products.length })}</h3>
          <ol className="shows-preview__products">
            {products.map(({ uid, product }) => {
              const price = product.prices[currency];
              return (
                <li key={uid}>
                  {product.images[0] ? <img src={product.images[0]} alt="" /> : <span aria-hidden="true" />}
                  <span>{product.name}</span>
                  <strong>
                    {price === undefined ? '' : formatMoney(price, currency, i18n.language as Locale)}
                  </strong>
                </li>
              );
            })}
          </ol>
        </div>
      </article>
    </StudioPage>
  );
}
