import { Link } from 'react-router';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { StudioPage } from './studio-page.tsx';

/**
 * A studio address that names no page (issue 33 item 13): says so, inside the studio's frame,
 * with the way back, instead of an empty page.
 */
export function StudioNotFound() {
  const { t } = useStudioTranslation();
  const store = useStudioStore();
  return (
    <StudioPage title={t('notFound.title')}>
      <p data-page="studio-not-found">{t('notFound.text')}</p>
      <Link className="studio-button" to={`/studio/${encodeURIComponent(store.pageUid)}`}>
        {t('notFound.back')}
      </Link>
    </StudioPage>
  );
}
