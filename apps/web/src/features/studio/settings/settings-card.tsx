import type { FormEvent, ReactNode } from 'react';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';

/** What a settings form last did: nothing yet, saved, or refused with the server's message. */
export type SaveState = { kind: 'idle' } | { kind: 'saved' } | { kind: 'failed'; message: string };

/**
 * One section of the settings screen: a card with its heading, its form and a save button that
 * says what happened. Each section saves on its own, as each is its own call (and role).
 */
export function SettingsCard({
  id,
  title,
  description,
  onSubmit,
  busy,
  state,
  canSave = true,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  busy: boolean;
  state: SaveState;
  /** False for a member whose role may read but not change the section. */
  canSave?: boolean;
  children: ReactNode;
}) {
  const { t } = useStudioTranslation('studio-settings');
  return (
    <form
      id={id}
      className="studio-card settings-card"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="settings-card__title">
        {title}
      </h2>
      {description && <p className="studio-muted settings-card__description">{description}</p>}
      <fieldset className="settings-card__fields" disabled={!canSave}>
        {children}
      </fieldset>
      <div className="settings-card__actions">
        {canSave ? (
          <button
            type="submit"
            className="studio-button studio-button--primary"
            disabled={busy}
            aria-busy={busy}
          >
            {busy ? t('saving') : t('save')}
          </button>
        ) : (
          <p className="studio-muted studio-small">{t('ownerOnly')}</p>
        )}
        <span aria-live="polite" className="settings-card__status">
          {state.kind === 'saved' && (
            <span className="studio-notice studio-notice--success">{t('saved')}</span>
          )}
        </span>
      </div>
      {state.kind === 'failed' && <ErrorNotice message={state.message} />}
    </form>
  );
}
