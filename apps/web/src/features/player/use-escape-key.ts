import { useEffect, useRef } from 'react';

/**
 * Calls the latest `onEscape` when the viewer presses Escape anywhere in the player's document,
 * unless something else has it: a handler that called preventDefault, or an open modal dialog
 * (login, confirm), which closes itself on Escape first.
 */
export function useEscapeKey(onEscape: () => void): void {
  const latest = useRef(onEscape);
  latest.current = onEscape;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('dialog[open]')) return;
      latest.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
