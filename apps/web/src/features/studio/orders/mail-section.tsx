import type { StudioMail } from '@vitrine/protocol';
import { useState } from 'react';
import { useLocale } from '../../../lib/use-locale.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { Pager } from '../ui/pager.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import './orders.css';

const PAGE_SIZE = 50;

/**
 * The store's mails: sent, kept (no mail server configured: the demo), queued for a retry or
 * failed. A mail opens below the list; its HTML shows in a sandboxed frame, never as our own page.
 */
export default function MailSection() {
  const { t } = useStudioTranslation('studio-orders');
  const format = useLocale();
  const { pageUid } = useStudioStore();
  const [status, setStatus] = useState<'' | StudioMail['status']>('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [open, setOpen] = useState<StudioMail | null>(null);
  const list = useStaffQuery('listStudioMail', {
    params: { pageUid },
    query: { status, before: cursors.at(-1), limit: PAGE_SIZE },
  });
  const mails = list.data?.mails ?? [];
  const first = (cursors.length - 1) * PAGE_SIZE + 1;

  return (
    <StudioPage title={t('mail.title')}>
      <p className="studio-muted">{t('mail.intro')}</p>
      <div className="studio-toolbar studio-orders-filters">
        <label>
          <span className="studio-field__label">{t('list.status')}</span>
          <select
            className="studio-input"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as typeof status);
              setCursors([undefined]);
            }}
          >
            <option value="">{t('list.any')}</option>
            {(['sent', 'kept', 'queued', 'failed'] as const).map((value) => (
              <option key={value} value={value}>
                {t(`mail.status.${value}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.error && (
        <p className="studio-notice studio-notice--error" role="alert">
          {refusalText(list.error, t('list.failed'))}
        </p>
      )}
      <div className="studio-table-wrap" aria-busy={list.loading}>
        <table className="studio-table">
          <caption className="studio-visually-hidden">{t('mail.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('mail.created')}</th>
              <th scope="col">{t('mail.to')}</th>
              <th scope="col">{t('mail.subject')}</th>
              <th scope="col">{t('mail.kind')}</th>
              <th scope="col">{t('list.status')}</th>
            </tr>
          </thead>
          <tbody>
            {mails.map((mail) => (
              <tr key={mail.uid} aria-selected={open?.uid === mail.uid}>
                <td>{format.dateTime(mail.createdAt)}</td>
                <td>{mail.to}</td>
                <td>
                  <button type="button" className="studio-link-button" onClick={() => setOpen(mail)}>
                    {mail.subject}
                  </button>
                </td>
                <td>
                  {t(`mail.template.${mail.template}`, { defaultValue: mail.template })} · {mail.locale}
                </td>
                <td>
                  <span className={`studio-badge studio-badge--mail-${mail.status}`}>
                    {t(`mail.status.${mail.status}`)}
                  </span>
                  {mail.error && <div className="studio-small studio-muted">{mail.error}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!list.loading && mails.length === 0 && <p className="studio-notice">{t('mail.none')}</p>}
      </div>
      <Pager
        rangeText={mails.length === 0 ? '' : t('list.range', { first, last: first + mails.length - 1 })}
        onPrevious={cursors.length > 1 ? () => setCursors((previous) => previous.slice(0, -1)) : null}
        onNext={
          list.data?.nextBefore
            ? () => {
                const next = list.data?.nextBefore ?? undefined;
                setCursors((previous) => [...previous, next]);
              }
            : null
        }
      />
      {open && (
        <section className="studio-card studio-mail-view" aria-labelledby="mail-view-title">
          <div className="studio-page__head">
            <h2 id="mail-view-title">{open.subject}</h2>
            <button
              type="button"
              className="studio-button studio-button--quiet"
              onClick={() => setOpen(null)}
            >
              {t('mail.close')}
            </button>
          </div>
          <p className="studio-muted">
            {t('mail.to')}: {open.to} · {format.dateTime(open.createdAt)}
            {open.sentAt !== null && ` · ${t('mail.status.sent')} ${format.dateTime(open.sentAt)}`}
          </p>
          <div className="studio-mail-view__bodies">
            {/* No scripts, forms or same-origin access: the mail's HTML is shown, never run. */}
            <iframe title={t('mail.html')} sandbox="" srcDoc={open.html} className="studio-mail-view__html" />
            <figure className="studio-mail-view__text">
              <figcaption className="studio-visually-hidden">{t('mail.text')}</figcaption>
              {/* Focusable: a keyboard user can scroll a long mail's text. */}
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (WCAG 2.1.1). */}
              <pre tabIndex={0}>{open.text}</pre>
            </figure>
          </div>
        </section>
      )}
    </StudioPage>
  );
}
