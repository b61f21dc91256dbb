import type { Show } from '@vitrine/protocol';
import { useId } from 'react';
import { useStudioTranslation } from '../studio-i18n.ts';
import { CopyButton } from '../ui/copy-button.tsx';

/** The show's link on the storefront, the snippet to embed it, and its calendar file. */
export function SharePanel({ show }: { show: Show }) {
  const { t } = useStudioTranslation('studio-shows');
  const linkId = useId();
  const snippetId = useId();
  return (
    <div className="shows-share">
      {show.visibility === 'draft' && <p className="studio-muted studio-small">{t('share.draftHint')}</p>}
      <div className="studio-field">
        <label className="studio-field__label" htmlFor={linkId}>
          {t('share.link')}
        </label>
        <input
          id={linkId}
          className="studio-input"
          readOnly
          value={show.links.storefrontUrl}
          onFocus={(event) => event.target.select()}
        />
        <div className="shows-share__actions">
          <ShareCopyButton text={show.links.storefrontUrl} label={t('share.copyLink')} />
          <a href={show.links.storefrontUrl} target="_blank" rel="noreferrer">
            {t('share.open')}
          </a>
        </div>
      </div>
      <div className="studio-field">
        <label className="studio-field__label" htmlFor={snippetId}>
          {t('share.embed')}
        </label>
        <textarea
          id={snippetId}
          className="studio-input shows-share__snippet"
          readOnly
          rows={5}
          value={show.links.embedSnippet}
          onFocus={(event) => event.target.select()}
        />
        <p className="studio-field__hint">{t('share.embedHint')}</p>
        <div className="shows-share__actions">
          <ShareCopyButton text={show.links.embedSnippet} label={t('share.copyEmbed')} />
        </div>
      </div>
      <div className="studio-field">
        <span className="studio-field__label">{t('share.calendar')}</span>
        {show.links.calendarUrl ? (
          <div className="shows-share__actions">
            <a href={show.links.calendarUrl} download>
              {t('share.downloadCalendar')}
            </a>
            <ShareCopyButton text={show.links.calendarUrl} label={t('share.copyCalendar')} />
          </div>
        ) : (
          <p className="studio-muted studio-small">{t('share.calendarDraft')}</p>
        )}
      </div>
    </div>
  );
}

/** Copies one of the show's links, with the panel's "copied" and "copy failed" texts. */
function ShareCopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useStudioTranslation('studio-shows');
  return (
    <CopyButton text={text} label={label} copiedText={t('share.copied')} failedText={t('share.copyFailed')} />
  );
}
