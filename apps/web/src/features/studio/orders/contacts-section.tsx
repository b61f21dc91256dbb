import { useState } from 'react';
import { useLocale } from '../../../lib/use-locale.ts';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { DataTable } from '../ui/data-table.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { useCursorPages } from '../ui/use-cursor-pages.ts';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { saveCsv } from './csv-download.ts';
import { ListFilter, PagedTable } from './paged-list.tsx';
import './orders.css';
import { ErrorNotice } from '../ui/error-notice.tsx';

const PAGE_SIZE = 50;

/** Contact details viewers left in the store's shows (spec §1 social live), with their consent; CSV export. */
export default function ContactsSection() {
  const { t } = useStudioTranslation('studio-orders');
  const format = useLocale();
  const { pageUid } = useStudioStore();
  const [consent, setConsent] = useState<'' | 'true' | 'false'>('');
  const pages = useCursorPages(PAGE_SIZE);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useStaffQuery('listStudioContacts', {
    params: { pageUid },
    query: { consent, before: pages.cursor, limit: PAGE_SIZE },
  });
  const contacts = list.data?.contacts ?? [];

  const exportCsv = async () => {
    try {
      saveCsv(await staffCall('exportStudioContacts', { params: { pageUid }, query: { consent } }));
      setNotice(null);
    } catch (error) {
      setNotice(refusalText(error, t('list.exportFailed')));
    }
  };

  return (
    <StudioPage
      title={t('contacts.title')}
      actions={
        <button type="button" className="studio-button" onClick={() => void exportCsv()}>
          {t('list.export')}
        </button>
      }
    >
      <p className="studio-muted">{t('contacts.intro')}</p>
      <ErrorNotice message={notice} />
      <ListFilter
        label={t('contacts.consent')}
        value={consent}
        onChange={(value) => {
          setConsent(value as typeof consent);
          pages.restart();
        }}
      >
        <option value="">{t('list.any')}</option>
        <option value="true">{t('contacts.consented')}</option>
        <option value="false">{t('contacts.notConsented')}</option>
      </ListFilter>
      <PagedTable
        list={list}
        shown={contacts.length}
        pages={pages}
        nextCursor={list.data?.nextBefore}
        empty={t('contacts.none')}
      >
        <DataTable
          caption={t('contacts.title')}
          columns={[
            { header: t('contacts.name'), cell: (contact) => contact.name || '—' },
            { header: t('contacts.email'), cell: (contact) => contact.email },
            { header: t('contacts.phone'), cell: (contact) => contact.phone },
            {
              header: t('contacts.consent'),
              cell: (contact) => (
                <span
                  className={`studio-badge ${contact.consent ? 'studio-badge--paid' : 'studio-badge--unpaid'}`}
                >
                  {contact.consent ? t('contacts.consented') : t('contacts.notConsented')}
                </span>
              ),
            },
            { header: t('contacts.source'), cell: (contact) => contact.source },
            { header: t('contacts.capturedAt'), cell: (contact) => format.dateTime(contact.createdAt) },
          ]}
          rows={contacts}
          rowKey={(contact) => contact.uid}
        />
      </PagedTable>
    </StudioPage>
  );
}
