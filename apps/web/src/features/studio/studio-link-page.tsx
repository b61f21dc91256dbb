import type { AuthSession } from '@vitrine/protocol';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { adoptSession } from '../../lib/session.ts';
import { publicStudioCall } from './studio-api.ts';
import { useStudioTranslation } from './studio-i18n.ts';
import { StudioLoading } from './ui/studio-loading.tsx';
import { refusalText } from './use-staff-query.ts';

/** A link works once: a second effect run (React's strict mode) waits for the first redemption. */
const redemptions = new Map<string, Promise<AuthSession>>();

/**
 * /studio/link#<token>: a one-time studio link (printed by `npm start` or `npm run studio:owner`).
 * The token travels in the fragment, so it never reaches a server log or a Referer header.
 */
export function StudioLinkPage() {
  const { t } = useStudioTranslation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const token = window.location.hash.slice(1);
    if (!token) {
      setFailure(t('link.missing'));
      return;
    }
    let redemption = redemptions.get(token);
    if (!redemption) {
      redemption = publicStudioCall('redeemStudioLink', { body: { token } });
      redemptions.set(token, redemption);
    }
    redemption.then(
      (session) => {
        adoptSession(session);
        void navigate('/studio', { replace: true });
      },
      (error: unknown) => setFailure(refusalText(error, t('link.failed'))),
    );
  }, [navigate, t]);

  if (!failure) return <StudioLoading />;
  return (
    <main className="studio-centre">
      <div className="studio-card studio-card--narrow">
        <h1>{t('link.title')}</h1>
        <p role="alert" className="studio-notice studio-notice--error">
          {failure}
        </p>
        <Link to="/studio" className="studio-button studio-button--primary">
          {t('link.signIn')}
        </Link>
      </div>
    </main>
  );
}
