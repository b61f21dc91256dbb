import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Shares the show's link with the system share sheet where there is one, else copies it. */
export default function SharePanel({ title }: { title: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const url = window.location.href;
  const share = async () => {
    if (navigator.share) {
      await navigator.share({ title, url }).catch(() => undefined);
      return;
    }
    await navigator.clipboard?.writeText(url);
    setCopied(true);
  };
  return (
    <div className="share-panel">
      <input
        readOnly
        value={url}
        aria-label={t('player.shareLink')}
        onFocus={(e) => e.currentTarget.select()}
      />
      <button type="button" className="button" onClick={() => void share()}>
        {copied ? t('player.copied') : t('player.share')}
      </button>
    </div>
  );
}
