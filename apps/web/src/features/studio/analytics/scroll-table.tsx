import type { ReactNode } from 'react';

/**
 * A wide table's scroll box: on a phone it scrolls sideways, so it takes the keyboard focus
 * (WCAG 2.1.1) and is named for screen readers by the table it holds.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (WCAG 2.1.1).
    <section className="studio-table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
