import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from './error-notice.tsx';
import { StudioPage } from './studio-page.tsx';

/** Shown while a studio page or its data loads. */
export function StudioLoading() {
  const { t } = useStudioTranslation();
  return (
    <div className="studio-loading" role="status" aria-live="polite">
      <span className="studio-spinner" aria-hidden="true" />
      {t('loading')}
    </div>
  );
}

/**
 * A studio page whose data is not in yet: the loading sign, or, once the load has failed, the page
 * (`title`) saying why (`failure`).
 */
export function StudioPageLoading({ title, failure }: { title: string; failure: string | null }) {
  if (failure === null) return <StudioLoading />;
  return (
    <StudioPage title={title}>
      <ErrorNotice message={failure} />
    </StudioPage>
  );
}
