import { isPrivateMessageFresh, winnerNoticeWaitMs, winnerNotificationShowAt } from '@vitrine/domain';
import { NOTIFICATION_SUB_TYPE, type NotificationDoc } from '@vitrine/protocol';
import { useEffect, useRef, useState } from 'react';
import { Icon } from './icons.tsx';
import { useInteractionTranslation } from './interaction-i18n.ts';

/** How long a host-reply or competition notice stays before it goes by itself. */
const NOTICE_MS = 9000;
const SEEN_KEY = 'vitrine-seen-notifications';
/** Enough remembered notices for any one viewer; the oldest are forgotten first. */
const SEEN_LIMIT = 200;

type NoticeKind = 'hostReply' | 'winner' | 'competition';

interface Notice {
  uid: string;
  kind: NoticeKind;
  title: string;
  body: string;
}

function kindOf(doc: NotificationDoc): NoticeKind {
  if (doc.metaData.isCompetitionWinner === true) return 'winner';
  return doc.notificationSubType === NOTIFICATION_SUB_TYPE.hostReply ? 'hostReply' : 'competition';
}

/** The notice's own words: who replied and what, or (for a win) the competition; the heading says the rest. */
function noticeLine(notice: Notice): string {
  return notice.kind === 'winner'
    ? notice.title || notice.body
    : [notice.title, notice.body].filter(Boolean).join(' — ');
}

function readSeen(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(SEEN_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((uid): uid is string => typeof uid === 'string') : [];
  } catch {
    return [];
  }
}

function rememberSeen(uid: string) {
  try {
    const seen = readSeen().filter((seenUid) => seenUid !== uid);
    localStorage.setItem(SEEN_KEY, JSON.stringify([...seen, uid].slice(-SEEN_LIMIT)));
  } catch {
    // Blocked storage: a winner notice may show again on the next visit.
  }
}

/**
 * The viewer's notifications for this show (spec §3, §4, §6): a private host reply shows only
 * while newer than 30 seconds; a competition winner notice is kept until seen and shows after the
 * video delay plus 5 seconds — the delay this viewer measurably has on a live stream, else the
 * event's delays — so the viewer sees the draw in the video first. Every text is rendered as text.
 */
export default function Notifications({
  docs,
  noticeDelayMs,
  onOpenPrivate,
}: {
  /** The viewer's notifications for this campaign (the notifications live query). */
  docs: readonly NotificationDoc[];
  /** The video delay now (measured on a live stream): read when a winner notice arrives. */
  noticeDelayMs(): number;
  onOpenPrivate(): void;
}) {
  const { t } = useInteractionTranslation();
  const [shown, setShown] = useState<Notice[]>([]);
  const handled = useRef(new Set<string>());
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(
    () => () => {
      for (const timer of timers.current) clearTimeout(timer);
    },
    [],
  );

  useEffect(() => {
    const seen = new Set(readSeen());
    const later = (callback: () => void, ms: number) => {
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        callback();
      }, ms);
      timers.current.add(timer);
    };
    const dismiss = (uid: string) => setShown((current) => current.filter((notice) => notice.uid !== uid));
    for (const doc of docs) {
      if (handled.current.has(doc.uid)) continue;
      handled.current.add(doc.uid);
      const kind = kindOf(doc);
      const notice: Notice = {
        uid: doc.uid,
        kind,
        title: doc.notificationData.title ?? '',
        body: doc.notificationData.body ?? '',
      };
      const now = Date.now();
      if (kind === 'winner') {
        if (seen.has(doc.uid)) continue;
        // Checked again while it waits: the viewer's delay changes meanwhile (a stall, a catch-up).
        const showWhenDue = () => {
          const wait = winnerNoticeWaitMs(winnerNotificationShowAt(doc.created, noticeDelayMs()), Date.now());
          if (wait !== null) later(showWhenDue, wait);
          else setShown((current) => [...current, notice]);
        };
        showWhenDue();
      } else if (isPrivateMessageFresh(doc.created, now)) {
        setShown((current) => [...current, notice]);
        later(() => dismiss(doc.uid), NOTICE_MS);
      }
    }
  }, [docs, noticeDelayMs]);

  if (shown.length === 0) return null;
  const close = (notice: Notice) => {
    if (notice.kind === 'winner') rememberSeen(notice.uid);
    setShown((current) => current.filter((candidate) => candidate.uid !== notice.uid));
  };
  return (
    <div className="notice-stack" role="status" aria-live="polite">
      {shown.map((notice) => (
        <div key={notice.uid} className={`notice notice--${notice.kind}`} data-notice={notice.kind}>
          <Icon name={notice.kind === 'hostReply' ? 'chat' : 'trophy'} className="notice__icon" />
          <div className="notice__body">
            <p className="notice__title">{t(`interaction.notifications.${notice.kind}`)}</p>
            {noticeLine(notice) && <p className="notice__text">{noticeLine(notice)}</p>}
          </div>
          {notice.kind === 'hostReply' && (
            <button
              type="button"
              className="link-button"
              onClick={() => {
                close(notice);
                onOpenPrivate();
              }}
            >
              {t('interaction.notifications.read')}
            </button>
          )}
          <button type="button" className="link-button" onClick={() => close(notice)}>
            {t('player.host.dismiss')}
          </button>
        </div>
      ))}
    </div>
  );
}
