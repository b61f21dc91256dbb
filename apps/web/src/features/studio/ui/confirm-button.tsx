import { type ReactNode, useRef, useState } from 'react';
import { useStudioTranslation } from '../studio-i18n.ts';

/**
 * A button for a destructive or irreversible action (archive, delete, refund, send to packing):
 * it opens a modal dialog that says what will happen, and acts only on the dialog's confirm.
 * `onConfirm` may be async; the dialog stays open, busy, until it settles and shows its failure.
 */
export function ConfirmButton({
  children,
  title,
  message,
  confirmLabel,
  onConfirm,
  danger = true,
  disabled = false,
  className = '',
}: {
  children: ReactNode;
  title: ReactNode;
  message: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => Promise<void> | void;
  danger?: boolean;
  disabled?: boolean;
  className?: string;
}) {
  const { t } = useStudioTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await onConfirm();
      dialog.current?.close();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className={`studio-button${danger ? ' studio-button--danger' : ''} ${className}`}
        disabled={disabled}
        onClick={() => {
          setFailure(null);
          dialog.current?.showModal();
        }}
      >
        {children}
      </button>
      <dialog ref={dialog} className="studio-dialog" aria-labelledby={undefined}>
        <h2 className="studio-dialog__title">{title}</h2>
        <div className="studio-dialog__message">{message}</div>
        {failure && (
          <p role="alert" className="studio-notice studio-notice--error">
            {failure}
          </p>
        )}
        <div className="studio-dialog__actions">
          <button
            type="button"
            className="studio-button"
            onClick={() => dialog.current?.close()}
            disabled={busy}
          >
            {t('confirm.cancel')}
          </button>
          <button
            type="button"
            className={`studio-button ${danger ? 'studio-button--danger-solid' : 'studio-button--primary'}`}
            onClick={() => void confirm()}
            disabled={busy}
            aria-busy={busy}
          >
            {confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
