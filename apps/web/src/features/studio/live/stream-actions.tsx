import type { LiveStreamState } from '@vitrine/domain';
import { type ReactNode, useState } from 'react';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { refusalText } from '../use-staff-query.ts';

/** The two pages that run a show's stream; each says Go live and End in its own words. */
type StreamNamespace = 'studio-live' | 'studio-control-room';

/**
 * Runs a stream call (Go live, End, a new stream key) and keeps its refusal for `StreamActions`
 * to show. `rethrow` hands the failure on too: a confirm dialog then stays open and says it.
 */
export function useStreamCall(namespace: StreamNamespace) {
  const { t } = useStudioTranslation(namespace);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<void>, rethrow: boolean) => {
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(refusalText(failure, t('actions.failed')));
      if (rethrow) throw failure;
    }
  };
  return { error, run };
}

/**
 * A show's Go live and End, as the Go live page and the control room both offer them: Go live
 * can be pressed once the stream arrives (receiving), End while it is on air and after a
 * confirmation. `children` are the page's own further actions.
 */
export function StreamActions({
  namespace,
  state,
  error,
  showGoLive,
  busy = false,
  onGoLive,
  onEnd,
  children,
}: {
  namespace: StreamNamespace;
  state: LiveStreamState;
  /** The last stream call's refusal (`useStreamCall`). */
  error: string | null;
  /** Whether Go live is shown (disabled until the stream is receiving). */
  showGoLive: boolean;
  /** A stream call is under way: Go live waits. */
  busy?: boolean;
  onGoLive: () => Promise<void>;
  onEnd: () => Promise<void>;
  children?: ReactNode;
}) {
  const { t } = useStudioTranslation(namespace);
  const onAir = state === 'live' || state === 'reconnecting';
  return (
    <>
      <ErrorNotice message={error} />
      <div className="live-actions">
        {showGoLive && (
          <button
            type="button"
            className="studio-button studio-button--primary"
            disabled={busy || state !== 'receiving'}
            onClick={() => void onGoLive().catch(() => {})}
          >
            {t('actions.goLive')}
          </button>
        )}
        {onAir && (
          <ConfirmButton
            title={t('actions.endTitle')}
            message={t('actions.endMessage')}
            confirmLabel={t('actions.endConfirm')}
            onConfirm={onEnd}
          >
            {t('actions.end')}
          </ConfirmButton>
        )}
        {children}
      </div>
    </>
  );
}
