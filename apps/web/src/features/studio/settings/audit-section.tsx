import { useLocale } from '../../../lib/use-locale.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { DataTable } from '../ui/data-table.tsx';
import { Pager } from '../ui/pager.tsx';
import { StudioPageLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { useCursorPages } from '../ui/use-cursor-pages.ts';
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
 * cursors (the oldest entry shown), kept in a stack so "previous" returns exactly (`useCursorPages`).
 */
export default function AuditSection() {
  const { t } = useStudioTranslation('studio-settings');
  const store = useStudioStore();
  const { dateTime } = useLocale();
  const pages = useCursorPages(PAGE_SIZE);
  const log = useStaffQuery('listAuditLog', {
    params: { pageUid: store.pageUid },
    query: { limit: PAGE_SIZE, before: pages.cursor },
  });
  if (!log.data)
    return (
      <StudioPageLoading
        title={t('audit.title')}
        failure={log.error ? refusalText(log.error, t('loadFailed')) : null}
      />
    );
  const { entries, nextBefore } = log.data;
  return (
    <StudioPage title={t('audit.title')}>
      <p className="studio-muted">{t('audit.description')}</p>
      <section className="studio-card" aria-label={t('audit.title')}>
        {entries.length === 0 ? (
          <p className="studio-muted">{t('audit.empty')}</p>
        ) : (
          <div className="studio-table-wrap">
            <DataTable
              testId="audit-log"
              columns={[
                { header: t('audit.when'), cell: (entry) => dateTime(entry.at) },
                {
                  header: t('audit.who'),
                  cell: (entry) => (entry.actorUid ? entry.actor : t('audit.adminKey')),
                },
                {
                  header: t('audit.what'),
                  cell: (entry) => (
                    <>
                      <code>{entry.action}</code>
                      {Object.keys(entry.target).length > 0 && (
                        <div className="studio-muted studio-small">{targetText(entry.target)}</div>
                      )}
                    </>
                  ),
                },
                {
                  header: t('audit.details'),
                  cell: (entry) =>
                    entry.details === null || entry.details === undefined ? (
                      '—'
                    ) : (
                      <details>
                        <summary>{t('audit.show')}</summary>
                        <pre className="audit-details">{JSON.stringify(entry.details, null, 2)}</pre>
                      </details>
                    ),
                },
              ]}
              rows={entries}
              rowKey={(entry) => entry.id}
            />
          </div>
        )}
        <Pager
          rangeText={(() => {
            const range = pages.range(entries.length);
            return range ? t('audit.range', range) : t('audit.noEntries');
          })()}
          onPrevious={pages.previous}
          onNext={pages.next(nextBefore)}
        />
      </section>
    </StudioPage>
  );
}
