import { type RefObject, useEffect, useRef } from 'react';

/**
 * Focuses the element once it is shown, for a field the viewer just asked for (edit, answer). The
 * `autoFocus` attribute does not do it: browsers honour it only while the page loads, and Preact,
 * unlike react-dom, does not focus it on mount.
 */
export function useFocusOnMount<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}
