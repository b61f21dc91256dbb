import { useInteractionTranslation } from './interaction-i18n.ts';

/** A count of unseen entries on a tab or menu button, announced with its meaning. */
export function UnseenBadge({ count }: { count: number }) {
  // Checked before any hook: an empty badge must not load the interaction texts.
  return count > 0 ? <UnseenCount count={count} /> : null;
}

function UnseenCount({ count }: { count: number }) {
  const { t } = useInteractionTranslation();
  return (
    <span className="tab-unseen" role="status" aria-label={t('interaction.comments.unseen', { count })}>
      {count > 99 ? '99+' : count}
    </span>
  );
}
