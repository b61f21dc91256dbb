import { type ReactNode, useId } from 'react';

/** What a FormField hands its control: the ids that tie it to its label, hint and message. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/**
 * A labelled form control with an optional hint and its validation message (the zod schema's
 * text, the same the server would answer). The control is a render prop so any input, select or
 * textarea (registered with react-hook-form or not) gets the accessible wiring.
 */
export function FormField({
  label,
  hint,
  error,
  children,
  className,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  children: (props: FieldControlProps) => ReactNode;
  className?: string;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div
      className={`studio-field${error ? ' studio-field--invalid' : ''}${className ? ` ${className}` : ''}`}
    >
      <label htmlFor={id} className="studio-field__label">
        {label}
      </label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="studio-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="studio-field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
