import type { StudioStoreSettings } from '@vitrine/protocol';
import { useState } from 'react';
import { useStudioTranslation } from '../studio-i18n.ts';
import { refusalText } from '../use-staff-query.ts';
import type { SaveState } from './settings-card.tsx';

/**
 * Runs a settings change and keeps its outcome for the card; the answer (the whole settings as
 * stored) replaces what the screen shows, so it never shows what the server did not keep.
 */
export function useSave(onSaved: (settings: StudioStoreSettings) => void) {
  const { t } = useStudioTranslation('studio-settings');
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const [busy, setBusy] = useState(false);
  const save = async (work: () => Promise<StudioStoreSettings>) => {
    setBusy(true);
    setState({ kind: 'idle' });
    try {
      onSaved(await work());
      setState({ kind: 'saved' });
    } catch (error) {
      setState({ kind: 'failed', message: refusalText(error, t('saveFailed')) });
    } finally {
      setBusy(false);
    }
  };
  return { state, busy, save };
}
