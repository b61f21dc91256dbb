import { useState } from 'react';
import { staffCall } from '../studio-api.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { useStaffAction } from '../use-staff-action.ts';

/**
 * Marks this moment of the live show as a highlight (issue 32 item 4): the seconds around it
 * become a clip when the show ends, selling the product presented now.
 */
export function HighlightButton({ pageUid, showUid }: { pageUid: string; showUid: string }) {
  const { t } = useStudioTranslation('studio-control-room');
  const [marked, setMarked] = useState(0);
  const { busy, failure, run } = useStaffAction(t('highlight.failed'));
  return (
    <p className="room-highlight">
      <button
        type="button"
        className="studio-button"
        disabled={busy}
        data-mark-highlight
        onClick={() =>
          void run(async () => {
            await staffCall('markHighlight', { params: { pageUid, showUid }, body: {} });
            setMarked((count) => count + 1);
          })
        }
      >
        {t('highlight.mark')}
      </button>{' '}
      <span role="status" className="studio-muted">
        {failure ?? (marked > 0 ? t('highlight.marked', { count: marked }) : '')}
      </span>
    </p>
  );
}
