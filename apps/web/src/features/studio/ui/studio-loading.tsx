import { useStudioTranslation } from '../studio-i18n.ts';

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
