import { type ReactNode, type RefObject, useRef, useState } from 'react';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from './error-notice.tsx';

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
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        className={`studio-button${danger ? ' studio-button--danger' : ''} ${className}`}
        disabled={disabled}
        onClick={() => dialog.current?.showModal()}
      >
        {children}
      </button>
      <ConfirmDialog
        dialog={dialog}
        title={title}
        message={message}
        confirmLabel={confirmLabel}
        onConfirm={onConfirm}
        danger={danger}
      />
    </>
  );
}

/**
 * The modal of a confirmed action, for a caller that opens it itself (`dialog.current.showModal()`,
 * e.g. after a form checked its input): what will happen, Cancel and the confirm button. It stays
 * open, busy, until `onConfirm` settles; it closes on success and shows the failure otherwise
 * (`failureText`, by default the error's message), which is forgotten when it closes.
 */
export function ConfirmDialog({
  dialog,
  title,
  titleId,
  message,
  confirmLabel,
  onConfirm,
  failureText = (error) => (error instanceof Error ? error.message : String(error)),
  danger = true,
}: {
  dialog: RefObject<HTMLDialogElement | null>;
  title: ReactNode;
  /** The title's id, which then names the dialog (`aria-labelledby`). */
  titleId?: string;
  message: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => Promise<void> | void;
  failureText?: (error: unknown) => string;
  danger?: boolean;
}) {
  const { t } = useStudioTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await onConfirm();
      dialog.current?.close();
    } catch (error) {
      setFailure(failureText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog ref={dialog} className="studio-dialog" aria-labelledby={titleId} onClose={() => setFailure(null)}>
      <h2 id={titleId} className="studio-dialog__title">
        {title}
      </h2>
      <div className="studio-dialog__message">{message}</div>
      <ErrorNotice message={failure} />
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
  );
}
