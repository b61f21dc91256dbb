import { useState } from 'react';

/**
 * Copies a value to the clipboard and says so in a status line; the value stays selectable beside
 * it when the browser refuses. The caller gives the texts, from its own section's namespace.
 */
export function CopyButton({
  text,
  label,
  copiedText,
  failedText,
}: {
  text: string;
  label: string;
  copiedText: string;
  failedText: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <>
      <button
        type="button"
        className="studio-button"
        onClick={() =>
          void navigator.clipboard.writeText(text).then(
            () => setState('copied'),
            () => setState('failed'),
          )
        }
      >
        {label}
      </button>
      <span role="status" className="studio-small studio-muted">
        {state === 'copied' ? copiedText : state === 'failed' ? failedText : ''}
      </span>
    </>
  );
}
