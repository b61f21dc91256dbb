import type { Show } from '@vitrine/protocol';
import { useId, useState } from 'react';
import { useStudioTranslation } from '../studio-i18n.ts';

/** Copies text to the clipboard and says so (or that it could not: the text is selectable anyway). */
function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useStudioTranslation('studio-shows');
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <>
      <button
        type="button"
        className="studio-button"
        onClick={() =>
          void navigator.clipboard.writeText(text).then(
            () => setState('copied'),
            () => setState('failed'),
          )
        }
      >
        {label}
      </button>
      <span role="status" className="studio-small studio-muted">
        {state === 'copied' ? t('share.copied') : state === 'failed' ? t('share.copyFailed') : ''}
      </span>
    </>
  );
}

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
          <CopyButton text={show.links.storefrontUrl} label={t('share.copyLink')} />
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
          <CopyButton text={show.links.embedSnippet} label={t('share.copyEmbed')} />
        </div>
      </div>
      <div className="studio-field">
        <span className="studio-field__label">{t('share.calendar')}</span>
        {show.links.calendarUrl ? (
          <div className="shows-share__actions">
            <a href={show.links.calendarUrl} download>
              {t('share.downloadCalendar')}
            </a>
            <CopyButton text={show.links.calendarUrl} label={t('share.copyCalendar')} />
          </div>
        ) : (
          <p className="studio-muted studio-small">{t('share.calendarDraft')}</p>
        )}
      </div>
    </div>
  );
}
