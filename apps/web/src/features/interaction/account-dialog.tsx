import { useEffect, useRef } from 'react';
import { AccountForms, type AccountFormsProps } from './account-forms.tsx';
import { useInteractionTranslation } from './interaction-i18n.ts';
import './interaction.css';

/**
 * The login and create-user dialog (spec §2) as a modal over the player: focus stays inside,
 * Escape and the close button dismiss it. Loaded on demand, so the player's first load does not
 * carry the forms.
 */
export default function AccountDialog(props: AccountFormsProps) {
  const { t } = useInteractionTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const { onDone } = props;
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="account-dialog"
      aria-label={t('interaction.account.dialogLabel')}
      onCancel={(event) => {
        event.preventDefault();
        onDone(false);
      }}
    >
      <button
        type="button"
        className="account-dialog__close"
        aria-label={t('player.close')}
        onClick={() => onDone(false)}
      >
        ×
      </button>
      <AccountForms {...props} />
    </dialog>
  );
}
