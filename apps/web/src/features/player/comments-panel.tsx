import { useTranslation } from 'react-i18next';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
import { useLocale } from '../../lib/use-locale.ts';

/**
 * The show's public chat as it happens, oldest at the top. Text is rendered as text, never as
 * HTML. Posting, replies and private messages arrive with the accounts and interaction issue.
 */
export function CommentsPanel({ pageUid, campaignUid }: { pageUid: string; campaignUid: string }) {
  const { t } = useTranslation();
  const format = useLocale();
  const comments = useLiveQuery('comments', { pageUid, campaignUid });
  const ordered = [...comments.docs].sort((a, b) => a.time - b.time);
  if (comments.status === 'SUBSCRIBED' && ordered.length === 0) {
    return <p className="panel-empty">{t('player.noComments')}</p>;
  }
  return (
    <ol className="comment-list" aria-live="polite">
      {ordered.map((comment) => (
        <li key={comment.uid} className="comment">
          <span className="comment__author">{comment.user.name || t('player.anonymousViewer')}</span>
          <span className="comment__time">{format.time(comment.time)}</span>
          <p className="comment__text">{comment.text}</p>
        </li>
      ))}
    </ol>
  );
}

export function PrivateCommentsPanel() {
  const { t } = useTranslation();
  return <p className="panel-empty">{t('player.noPrivateComments')}</p>;
}
