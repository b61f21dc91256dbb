import { useTranslation } from 'react-i18next';

/**
 * A price before the deal, struck through. Screen readers do not announce <s> as such, so a
 * visually hidden "was" says what the second price is.
 */
export function WasPrice({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <s className="was-price" data-testid="was-price">
      <span className="visually-hidden">{t('player.wasPrice')} </span>
      {text}
    </s>
  );
}
