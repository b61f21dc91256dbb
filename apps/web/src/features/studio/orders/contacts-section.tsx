import { useState } from 'react';
import { useLocale } from '../../../lib/use-locale.ts';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { Pager } from '../ui/pager.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { saveCsv } from './csv-download.ts';
import './orders.css';

const PAGE_SIZE = 50;

/** Contact details viewers left in the store's shows (spec §1 social live), with their consent; CSV export. */
export default function ContactsSection() {
  const { t } = useStudioTranslation('studio-orders');
  const format = useLocale();
  const { pageUid } = useStudioStore();
  const [consent, setConsent] = useState<'' | 'true' | 'false'>('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useStaffQuery('listStudioContacts', {
    params: { pageUid },
    query: { consent, before: cursors.at(-1), limit: PAGE_SIZE },
  });
  const contacts = list.data?.contacts ?? [];
  const first = (cursors.length - 1) * PAGE_SIZE + 1;

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
      {notice && (
        <p className="studio-notice studio-notice--error" role="alert">
          {notice}
        </p>
      )}
      <div className="studio-toolbar studio-orders-filters">
        <label>
          <span className="studio-field__label">{t('contacts.consent')}</span>
          <select
            className="studio-input"
            value={consent}
            onChange={(event) => {
              setConsent(event.target.value as typeof consent);
              setCursors([undefined]);
            }}
          >
            <option value="">{t('list.any')}</option>
            <option value="true">{t('contacts.consented')}</option>
            <option value="false">{t('contacts.notConsented')}</option>
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
          <caption className="studio-visually-hidden">{t('contacts.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('contacts.name')}</th>
              <th scope="col">{t('contacts.email')}</th>
              <th scope="col">{t('contacts.phone')}</th>
              <th scope="col">{t('contacts.consent')}</th>
              <th scope="col">{t('contacts.source')}</th>
              <th scope="col">{t('contacts.capturedAt')}</th>
            </tr>
          </thead>
          <tbody>
            {contacts.map((contact) => (
              <tr key={contact.uid}>
                <td>{contact.name || '—'}</td>
                <td>{contact.email}</td>
                <td>{contact.phone}</td>
                <td>
                  <span
                    className={`studio-badge ${contact.consent ? 'studio-badge--paid' : 'studio-badge--unpaid'}`}
                  >
                    {contact.consent ? t('contacts.consented') : t('contacts.notConsented')}
                  </span>
                </td>
                <td>{contact.source}</td>
                <td>{format.dateTime(contact.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!list.loading && contacts.length === 0 && <p className="studio-notice">{t('contacts.none')}</p>}
      </div>
      <Pager
        rangeText={contacts.length === 0 ? '' : t('list.range', { first, last: first + contacts.length - 1 })}
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
    </StudioPage>
  );
}
