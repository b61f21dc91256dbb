import type { ReactNode } from 'react';

/** A studio page: its heading, the actions beside it (buttons, links) and its content. */
export function StudioPage({
  title,
  actions,
  children,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="studio-page">
      <div className="studio-page__head">
        <h1 className="studio-page__title">{title}</h1>
        {actions && <div className="studio-page__actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
