import { useState } from 'react';
import { useLocale } from '../../../lib/use-locale.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { Pager } from '../ui/pager.tsx';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import './settings.css';

const PAGE_SIZE = 50;

/** What a change's target was, as "productUid: abc" pairs; empty for store-wide changes. */
const targetText = (target: Record<string, string>) =>
  Object.entries(target)
    .map(([key, value]) => `${key}: ${value}`)
    .join(', ');

/**
 * The audit log (owners): who changed what and when, newest first, fifty a page. Pages are
 * cursors (the oldest entry shown), kept in a stack so "previous" returns exactly.
 */
export default function AuditSection() {
  const { t } = useStudioTranslation('studio-settings');
  const store = useStudioStore();
  const { dateTime } = useLocale();
  const [cursors, setCursors] = useState<string[]>([]);
  const before = cursors.at(-1);
  const log = useStaffQuery('listAuditLog', {
    params: { pageUid: store.pageUid },
    query: { limit: PAGE_SIZE, before },
  });
  if (!log.data) {
    if (log.error)
      return (
        <StudioPage title={t('audit.title')}>
          <p role="alert" className="studio-notice studio-notice--error">
            {refusalText(log.error, t('loadFailed'))}
          </p>
        </StudioPage>
      );
    return <StudioLoading />;
  }
  const { entries, nextBefore } = log.data;
  const first = cursors.length * PAGE_SIZE + 1;
  return (
    <StudioPage title={t('audit.title')}>
      <p className="studio-muted">{t('audit.description')}</p>
      <section className="studio-card" aria-label={t('audit.title')}>
        {entries.length === 0 ? (
          <p className="studio-muted">{t('audit.empty')}</p>
        ) : (
          <div className="studio-table-wrap">
            <table className="studio-table" data-testid="audit-log">
              <thead>
                <tr>
                  <th scope="col">{t('audit.when')}</th>
                  <th scope="col">{t('audit.who')}</th>
                  <th scope="col">{t('audit.what')}</th>
                  <th scope="col">{t('audit.details')}</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <tr key={entry.id}>
                    <td>{dateTime(entry.at)}</td>
                    <td>{entry.actorUid ? entry.actor : t('audit.adminKey')}</td>
                    <td>
                      <code>{entry.action}</code>
                      {Object.keys(entry.target).length > 0 && (
                        <div className="studio-muted studio-small">{targetText(entry.target)}</div>
                      )}
                    </td>
                    <td>
                      {entry.details === null || entry.details === undefined ? (
                        '—'
                      ) : (
                        <details>
                          <summary>{t('audit.show')}</summary>
                          <pre className="audit-details">{JSON.stringify(entry.details, null, 2)}</pre>
                        </details>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager
          rangeText={t('audit.range', { first, last: first + entries.length - 1 })}
          onPrevious={cursors.length ? () => setCursors(cursors.slice(0, -1)) : null}
          onNext={nextBefore ? () => setCursors([...cursors, nextBefore]) : null}
        />
      </section>
    </StudioPage>
  );
}
