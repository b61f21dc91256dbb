import { useStudioTranslation } from '../studio-i18n.ts';

/**
 * Previous/next paging for a list that pages by cursor or offset: the caller says whether each
 * way is possible and what the range shown is (e.g. "1–50 of 10,000").
 */
export function Pager({
  rangeText,
  onPrevious,
  onNext,
}: {
  rangeText: string;
  onPrevious: (() => void) | null;
  onNext: (() => void) | null;
}) {
  const { t } = useStudioTranslation();
  return (
    <nav className="studio-pager" aria-label={t('pager.label')}>
      <button
        type="button"
        className="studio-button"
        onClick={onPrevious ?? undefined}
        disabled={!onPrevious}
      >
        {t('pager.previous')}
      </button>
      <span className="studio-pager__range">{rangeText}</span>
      <button type="button" className="studio-button" onClick={onNext ?? undefined} disabled={!onNext}>
        {t('pager.next')}
      </button>
    </nav>
  );
}
