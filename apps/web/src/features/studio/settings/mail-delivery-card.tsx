import type { MailDeliveryProblem, TestMailResult } from '@vitrine/protocol';
import { useState } from 'react';
import { useLocale } from '../../../lib/use-locale.ts';
import { staffCall } from '../studio-api.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';

type TestState =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'done'; result: TestMailResult }
  | { kind: 'failed'; message: string };

/**
 * Mail delivery (owners): whether the server sends mail or keeps it in the outbox, the two
 * settings that decide it (the server operator's, in its environment: one SMTP server serves
 * every store, and its password never reaches the studio), a test mail to the owner, and the
 * store's undelivered mails with "Send again" once mail works.
 */
export function MailDeliveryCard({ pageUid }: { pageUid: string }) {
  const { t } = useStudioTranslation('studio-settings');
  const format = useLocale();
  const query = useStaffQuery('getMailDelivery', { params: { pageUid } });
  const [test, setTest] = useState<TestState>({ kind: 'idle' });
  const [resending, setResending] = useState<string | null>(null);
  const [resent, setResent] = useState<{ uid: string; text: string; ok: boolean } | null>(null);
  const delivery = query.data;
  const sending = delivery?.transport === 'smtp';

  const sendTest = async () => {
    setTest({ kind: 'busy' });
    try {
      setTest({ kind: 'done', result: await staffCall('sendTestMail', { params: { pageUid }, body: {} }) });
    } catch (error) {
      setTest({ kind: 'failed', message: refusalText(error, t('mailDelivery.testFailed')) });
    }
  };

  const resend = async (mail: MailDeliveryProblem) => {
    setResending(mail.uid);
    setResent(null);
    try {
      const after = await staffCall('resendMail', { params: { pageUid, mailUid: mail.uid }, body: {} });
      setResent({
        uid: mail.uid,
        ok: after.status === 'sent',
        text:
          after.status === 'sent'
            ? t('mailDelivery.resent', { to: after.to })
            : t('mailDelivery.resendRefused', { error: after.error ?? '' }),
      });
      query.reload();
    } catch (error) {
      setResent({ uid: mail.uid, ok: false, text: refusalText(error, t('mailDelivery.testFailed')) });
    } finally {
      setResending(null);
    }
  };

  return (
    <section id="mail" className="studio-card settings-card" aria-labelledby="mail-title">
      <h2 id="mail-title" className="settings-card__title">
        {t('mailDelivery.title')}
      </h2>
      {!delivery ? (
        query.error ? (
          <ErrorNotice message={refusalText(query.error, t('loadFailed'))} />
        ) : (
          <p className="studio-muted">{t('mailDelivery.loading')}</p>
        )
      ) : (
        <>
          <p
            className={`studio-notice ${sending ? 'studio-notice--success' : ''}`}
            data-testid="mail-transport"
          >
            {sending
              ? t('mailDelivery.sending', { server: delivery.smtpServer ?? '' })
              : t('mailDelivery.keeping')}
          </p>
          <dl className="mail-delivery__settings">
            <dt>
              <code>{delivery.settings.smtpUrl}</code>
            </dt>
            <dd>{sending ? delivery.smtpServer : t('mailDelivery.smtpUrlHelp')}</dd>
            <dt>
              <code>{delivery.settings.from}</code>
            </dt>
            <dd>{delivery.from}</dd>
          </dl>
          <p className="studio-muted studio-small">{t('mailDelivery.operator')}</p>
          <div className="mail-delivery__test">
            <button
              type="button"
              className="studio-button studio-button--primary"
              disabled={!sending || test.kind === 'busy'}
              onClick={() => void sendTest()}
            >
              {test.kind === 'busy' ? t('mailDelivery.testSending') : t('mailDelivery.test')}
            </button>
            <p role="status" className="studio-small">
              {test.kind === 'done' &&
                (test.result.ok
                  ? t('mailDelivery.testSent', { to: test.result.to })
                  : t('mailDelivery.testRefused', { to: test.result.to, error: test.result.error }))}
              {test.kind === 'failed' && test.message}
            </p>
          </div>
          <h3 className="mail-delivery__heading">{t('mailDelivery.problems')}</h3>
          {delivery.problems.length === 0 ? (
            <p className="studio-muted">{t('mailDelivery.noProblems')}</p>
          ) : (
            <ul className="mail-delivery__problems" aria-label={t('mailDelivery.problems')}>
              {delivery.problems.map((mail) => (
                <li key={mail.uid} className="mail-delivery__problem">
                  <div className="mail-delivery__problem-text">
                    <strong>{mail.subject}</strong>
                    <div>
                      {t('mailDelivery.to')}: {mail.to} · {format.dateTime(mail.createdAt)}
                    </div>
                    <div className="studio-small">
                      {t(`mailDelivery.status.${mail.status}`)} · {t('mailDelivery.attempts')}:{' '}
                      {mail.attempts}
                    </div>
                    {mail.error && <div className="studio-small studio-muted">{mail.error}</div>}
                    {resent?.uid === mail.uid && (
                      <div role="status" className="studio-small">
                        {resent.text}
                      </div>
                    )}
                  </div>
                  <button
                    type="button"
                    className="studio-button"
                    disabled={!sending || resending !== null}
                    onClick={() => void resend(mail)}
                  >
                    {t('mailDelivery.resend')}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {!sending && delivery.problems.length > 0 && (
            <p className="studio-muted studio-small">{t('mailDelivery.resendNeedsServer')}</p>
          )}
        </>
      )}
    </section>
  );
}
