import type { StudioMail } from '@vitrine/protocol';
import { useState } from 'react';
import { useLocale } from '../../../lib/use-locale.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { DataTable } from '../ui/data-table.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { useCursorPages } from '../ui/use-cursor-pages.ts';
import { useStaffQuery } from '../use-staff-query.ts';
import { ListFilter, PagedTable } from './paged-list.tsx';
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
  const pages = useCursorPages(PAGE_SIZE);
  const [open, setOpen] = useState<StudioMail | null>(null);
  const list = useStaffQuery('listStudioMail', {
    params: { pageUid },
    query: { status, before: pages.cursor, limit: PAGE_SIZE },
  });
  const mails = list.data?.mails ?? [];

  return (
    <StudioPage title={t('mail.title')}>
      <p className="studio-muted">{t('mail.intro')}</p>
      <ListFilter
        label={t('list.status')}
        value={status}
        onChange={(value) => {
          setStatus(value as typeof status);
          pages.restart();
        }}
      >
        <option value="">{t('list.any')}</option>
        {(['sent', 'kept', 'queued', 'failed'] as const).map((value) => (
          <option key={value} value={value}>
            {t(`mail.status.${value}`)}
          </option>
        ))}
      </ListFilter>
      <PagedTable
        list={list}
        shown={mails.length}
        pages={pages}
        nextCursor={list.data?.nextBefore}
        empty={t('mail.none')}
      >
        <DataTable
          caption={t('mail.title')}
          columns={[
            { header: t('mail.created'), cell: (mail) => format.dateTime(mail.createdAt) },
            { header: t('mail.to'), cell: (mail) => mail.to },
            {
              header: t('mail.subject'),
              cell: (mail) => (
                <button type="button" className="studio-link-button" onClick={() => setOpen(mail)}>
                  {mail.subject}
                </button>
              ),
            },
            {
              header: t('mail.kind'),
              cell: (mail) => (
                <>
                  {t(`mail.template.${mail.template}`, { defaultValue: mail.template })} · {mail.locale}
                </>
              ),
            },
            {
              header: t('list.status'),
              cell: (mail) => (
                <>
                  <span className={`studio-badge studio-badge--mail-${mail.status}`}>
                    {t(`mail.status.${mail.status}`)}
                  </span>
                  {mail.error && <div className="studio-small studio-muted">{mail.error}</div>}
                </>
              ),
            },
          ]}
          rows={mails}
          rowKey={(mail) => mail.uid}
          rowProps={(mail) => ({ 'aria-selected': open?.uid === mail.uid })}
        />
      </PagedTable>
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
