import { useStudioTranslation } from '../studio-i18n.ts';
import { StudioPage } from './studio-page.tsx';

/** A section whose screens are not built yet; says so rather than show an empty page. */
export function SectionPlaceholder({ titleKey }: { titleKey: string }) {
  const { t } = useStudioTranslation();
  return (
    <StudioPage title={t(titleKey)}>
      <p className="studio-notice">{t('placeholder')}</p>
    </StudioPage>
  );
}
