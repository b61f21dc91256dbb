import { MAX_PRODUCT_CSV_BYTES } from '@vitrine/domain';
import type { ImportReport } from '@vitrine/protocol';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { uploadFile } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { BackLink } from '../ui/back-link.tsx';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { DataTable } from '../ui/data-table.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { ProgressBar } from '../ui/progress-bar.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText } from '../use-staff-query.ts';

type Stage =
  | { step: 'choose' }
  | { step: 'checking'; progress: number }
  | { step: 'report'; report: ImportReport }
  | { step: 'importing'; report: ImportReport; progress: number }
  | { step: 'done'; created: number; updated: number; skipped: number; report: ImportReport };

/**
 * Imports a Shopify product CSV in two steps: a dry run that shows what would be created and
 * updated and every bad row, then the import, which with bad rows needs a confirmation to
 * import the valid products only.
 */
export function ProductImport() {
  const { t } = useStudioTranslation('studio-catalogue');
  const store = useStudioStore();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const [failure, setFailure] = useState<string | null>(null);
  // The file is sent as CSV whatever type the browser gives it (Windows says application/vnd.ms-excel).
  const asCsv = (chosen: File) => new Blob([chosen], { type: 'text/csv' });

  const check = async (chosen: File) => {
    setFailure(null);
    if (chosen.size > MAX_PRODUCT_CSV_BYTES) {
      setFailure(t('import.tooLarge', { megabytes: MAX_PRODUCT_CSV_BYTES / (1024 * 1024) }));
      return;
    }
    setStage({ step: 'checking', progress: 0 });
    try {
      const report = await uploadFile(
        'previewProductImport',
        { pageUid: store.pageUid },
        asCsv(chosen),
        (progress) => setStage({ step: 'checking', progress }),
      );
      setStage({ step: 'report', report });
    } catch (error) {
      setStage({ step: 'choose' });
      setFailure(refusalText(error, t('import.failed')));
    }
  };

  const apply = async (report: ImportReport, validOnly: boolean) => {
    if (!file) return;
    setFailure(null);
    setStage({ step: 'importing', report, progress: 0 });
    try {
      const result = await uploadFile(
        'importProducts',
        { pageUid: store.pageUid },
        asCsv(file),
        (progress) => setStage({ step: 'importing', report, progress }),
        { validOnly: String(validOnly) },
      );
      setStage({ step: 'done', ...result });
    } catch (error) {
      const refused = error instanceof ApiError ? (error.body as { report?: ImportReport } | null) : null;
      setStage({ step: 'report', report: refused?.report ?? report });
      setFailure(refusalText(error, t('import.failed')));
    }
  };

  return (
    <StudioPage title={t('import.title')} actions={<BackLink to="..">{t('editor.back')}</BackLink>}>
      <section className="studio-card">
        <p>{t('import.intro')}</p>
        <div className="catalogue-import__choose">
          <label htmlFor={inputId} className="studio-button studio-button--primary">
            {t('import.choose')}
          </label>
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            className="visually-hidden"
            onChange={(event) => {
              const chosen = event.target.files?.[0] ?? null;
              event.target.value = '';
              setFile(chosen);
              if (chosen) void check(chosen);
            }}
          />
          {file && <span className="studio-small">{file.name}</span>}
        </div>
        {stage.step === 'checking' && <ProgressBar value={stage.progress} label={t('import.checking')} />}
        <ErrorNotice message={failure} />
      </section>

      {(stage.step === 'report' || stage.step === 'importing') && (
        <ImportReportView
          report={stage.report}
          busy={stage.step === 'importing'}
          progress={stage.step === 'importing' ? stage.progress : null}
          onImport={(validOnly) => apply(stage.report, validOnly)}
        />
      )}

      {stage.step === 'done' && (
        <section className="studio-card">
          <p role="status" className="studio-notice studio-notice--success">
            {t('import.done', { created: stage.created, updated: stage.updated, skipped: stage.skipped })}
          </p>
          <Link to=".." relative="path" className="studio-button studio-button--primary">
            {t('import.toProducts')}
          </Link>
        </section>
      )}
      {/* Images that could not be copied are known only once imported. */}
      {stage.step === 'done' && (
        <RowProblems id="import-warnings" title={t('import.warnings')} problems={stage.report.warnings} />
      )}
    </StudioPage>
  );
}

function ImportReportView({
  report,
  busy,
  progress,
  onImport,
}: {
  report: ImportReport;
  busy: boolean;
  progress: number | null;
  onImport: (validOnly: boolean) => Promise<void>;
}) {
  const { t } = useStudioTranslation('studio-catalogue');
  const { counts } = report;
  const valid = counts.create + counts.update;
  return (
    <>
      <section className="studio-card" aria-labelledby="import-summary">
        <h2 id="import-summary" className="catalogue-heading">
          {t('import.dryRun')}
        </h2>
        <p>
          {t('import.summary', {
            rows: report.rowCount,
            create: counts.create,
            update: counts.update,
            invalid: counts.invalid,
            currency: report.currency,
          })}
        </p>
        {progress !== null && <ProgressBar value={progress} label={t('import.importing')} />}
        <div className="catalogue-import__actions">
          {report.errors.length === 0 ? (
            <button
              type="button"
              className="studio-button studio-button--primary"
              disabled={busy || valid === 0}
              onClick={() => void onImport(false)}
            >
              {t('import.apply', { n: valid })}
            </button>
          ) : (
            <>
              <p className="studio-notice studio-notice--error">{t('import.hasErrors')}</p>
              {valid > 0 && (
                <ConfirmButton
                  danger={false}
                  disabled={busy}
                  title={t('import.validOnlyTitle')}
                  message={t('import.validOnlyMessage', { valid, invalid: counts.invalid })}
                  confirmLabel={t('import.validOnly', { n: valid })}
                  onConfirm={() => onImport(true)}
                >
                  {t('import.validOnly', { n: valid })}
                </ConfirmButton>
              )}
            </>
          )}
        </div>
      </section>

      <RowProblems id="import-errors" title={t('import.errors')} problems={report.errors} />
      <RowProblems id="import-warnings" title={t('import.warnings')} problems={report.warnings} />

      <section className="studio-card" aria-labelledby="import-products">
        <h2 id="import-products" className="catalogue-heading">
          {t('import.products')}
        </h2>
        <div className="studio-table-wrap">
          <DataTable
            columns={[
              { header: t('import.handle'), cell: (product) => product.handle },
              { header: t('list.name'), cell: (product) => product.name },
              { header: t('list.variants'), cell: (product) => product.variantCount, number: true },
              {
                header: t('import.action'),
                cell: (product) => (
                  <span className={`studio-badge catalogue-action catalogue-action--${product.action}`}>
                    {t(`import.actions.${product.action}`)}
                  </span>
                ),
              },
            ]}
            rows={report.products}
            rowKey={(product) => product.handle}
          />
        </div>
      </section>
    </>
  );
}

/**
 * The file's problems, per row and column: its errors (rows that cannot be imported) or its
 * warnings (what is imported, but not as the file has it: a value cut, an image left linked).
 * Nothing when there are none.
 */
function RowProblems({
  id,
  title,
  problems,
}: {
  id: string;
  title: string;
  problems: ImportReport['errors'] | ImportReport['warnings'];
}) {
  const { t } = useStudioTranslation('studio-catalogue');
  if (problems.length === 0) return null;
  return (
    <section className="studio-card" aria-labelledby={id}>
      <h2 id={id} className="catalogue-heading">
        {title}
      </h2>
      <div className="studio-table-wrap">
        <DataTable
          columns={[
            { header: t('import.row'), cell: (problem) => problem.row, number: true },
            { header: t('import.column'), cell: (problem) => problem.column ?? '–' },
            { header: t('import.problem'), cell: (problem) => problem.message },
          ]}
          rows={problems}
          rowKey={(problem) => `${problem.row}-${problem.column}-${problem.message}`}
        />
      </div>
    </section>
  );
}
