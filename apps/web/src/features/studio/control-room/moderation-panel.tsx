import type { ModerateCommentRequest, ModeratedComment, ModerationBoard } from '@vitrine/protocol';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useLocale } from '../../../lib/use-locale.ts';
import { staffCall } from '../studio-api.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { useStaffAction } from '../use-staff-action.ts';
import { refusalText, useReloadEvery, useStaffQuery } from '../use-staff-query.ts';
import './moderation-panel.css';

/**
 * How often the board is asked for when nothing says it changed (no `changeKey`): a second, so
 * what another moderator did shows within one.
 */
const BOARD_REFRESH_MS = 1000;

type Action = ModerateCommentRequest['action'];

export interface ModerationPanelProps {
  /** The store (page) uid. */
  storeId: string;
  /** The show's uid (its live event's id, as studio paths name it). */
  showId: string;
  /**
   * Changes when the board changed on the server (the control room's live query): the board is
   * read again then instead of every second; null while it is not known yet.
   */
  changeKey?: string | null;
}

/**
 * The control room's chat moderation (issue 16 §3): the live chat with hide, unhide, delete and
 * ban per comment; comments held for review; the questions queue with public, private or no
 * answer; slow mode, the pinned announcement, blocked words, bans and the moderation log. Every
 * action states the comment's version, so what another moderator did first is refused and shown.
 * Viewers' texts are rendered as React text, never as HTML.
 */
export function ModerationPanel({ storeId, showId, changeKey }: ModerationPanelProps) {
  const { t } = useStudioTranslation('studio-moderation');
  const params = { pageUid: storeId, showUid: showId };
  const board = useStaffQuery('getModerationBoard', { params });
  const { busy, failure: problem, run } = useStaffAction(t('failed'));
  const { reload } = board;

  const listening = changeKey !== undefined;
  useReloadEvery(reload, BOARD_REFRESH_MS, !listening);
  // Each key (the first too: the board may have changed since it was read) reads it again.
  useEffect(() => {
    if (changeKey) reload();
  }, [changeKey, reload]);

  /** Runs one action, shows the server's message when refused (409: someone else acted), then reloads. */
  async function act(work: () => Promise<unknown>): Promise<boolean> {
    const done = await run(work);
    reload();
    return done;
  }

  const moderate = (comment: ModeratedComment, action: Action) =>
    act(() =>
      staffCall('moderateComment', {
        params: { ...params, commentUid: comment.uid },
        body: { action, version: comment.version },
      }),
    );
  const ban = (comment: ModeratedComment) =>
    act(() => staffCall('banViewer', { params: { pageUid: storeId }, body: { userUid: comment.user.uid } }));

  const data = board.data;
  if (!data) {
    return (
      <section className="moderation" aria-label={t('title')}>
        <p role="status">{board.error ? refusalText(board.error, t('failed')) : t('loading')}</p>
      </section>
    );
  }

  return (
    <section className="moderation" aria-label={t('title')} aria-busy={busy}>
      {problem && (
        <p className="moderation__problem" role="alert">
          {problem}
        </p>
      )}
      <div className="moderation__grid">
        <section className="moderation__card moderation__chat" aria-labelledby="moderation-chat">
          <h2 id="moderation-chat">{t('chat.title')}</h2>
          {data.comments.length === 0 ? (
            <p className="moderation__empty">{t('chat.empty')}</p>
          ) : (
            <ol className="moderation__list">
              {data.comments.map((comment) => (
                <CommentRow key={comment.uid} comment={comment}>
                  {comment.state === 'visible' && (
                    <button
                      type="button"
                      className="studio-button"
                      disabled={busy}
                      onClick={() => moderate(comment, 'hide')}
                    >
                      {t('actions.hide')}
                    </button>
                  )}
                  {comment.state === 'hidden' && (
                    <button
                      type="button"
                      className="studio-button"
                      disabled={busy}
                      onClick={() => moderate(comment, 'unhide')}
                    >
                      {t('actions.unhide')}
                    </button>
                  )}
                  {comment.state !== 'deleted' && (
                    <button
                      type="button"
                      className="studio-button studio-button--danger"
                      disabled={busy}
                      onClick={() => moderate(comment, 'delete')}
                    >
                      {t('actions.delete')}
                    </button>
                  )}
                  {comment.question === 'none' && comment.state === 'visible' && (
                    <button
                      type="button"
                      className="studio-button studio-button--quiet"
                      disabled={busy}
                      onClick={() => moderate(comment, 'flagQuestion')}
                    >
                      {t('actions.flagQuestion')}
                    </button>
                  )}
                  {!comment.authorBanned && comment.source === 'player' && (
                    <button
                      type="button"
                      className="studio-button studio-button--danger"
                      disabled={busy}
                      onClick={() => ban(comment)}
                    >
                      {t('actions.ban', { name: comment.user.name || t('anonymous') })}
                    </button>
                  )}
                </CommentRow>
              ))}
            </ol>
          )}
        </section>

        <div className="moderation__side">
          <section className="moderation__card" aria-labelledby="moderation-held">
            <h2 id="moderation-held">
              {t('held.title')} <span className="moderation__count">{data.held.length}</span>
            </h2>
            {data.held.length === 0 ? (
              <p className="moderation__empty">{t('held.empty')}</p>
            ) : (
              <ol className="moderation__list">
                {data.held.map((comment) => (
                  <CommentRow key={comment.uid} comment={comment}>
                    <button
                      type="button"
                      className="studio-button studio-button--primary"
                      disabled={busy}
                      onClick={() => moderate(comment, 'approve')}
                    >
                      {t('actions.approve')}
                    </button>
                    <button
                      type="button"
                      className="studio-button"
                      disabled={busy}
                      onClick={() => moderate(comment, 'reject')}
                    >
                      {t('actions.reject')}
                    </button>
                  </CommentRow>
                ))}
              </ol>
            )}
          </section>

          <QuestionsQueue board={data} storeId={storeId} showId={showId} busy={busy} act={act} />
          <ChatControls board={data} storeId={storeId} showId={showId} busy={busy} act={act} />
          <BanList board={data} storeId={storeId} busy={busy} act={act} />
          <ModerationLog board={data} />
        </div>
      </div>
    </section>
  );
}

/** One comment: author, time, text (as text), and who moderated it. */
function CommentRow({ comment, children }: { comment: ModeratedComment; children?: React.ReactNode }) {
  const { t } = useStudioTranslation('studio-moderation');
  const locale = useLocale();
  const time = locale.time(comment.time);
  return (
    <li className="moderation__comment" data-state={comment.state} data-comment-uid={comment.uid}>
      <p className="moderation__byline">
        <strong>{comment.user.name || t('anonymous')}</strong>{' '}
        <time dateTime={new Date(comment.time).toISOString()}>{time}</time>
        {comment.state !== 'visible' && comment.state !== 'held' && (
          <span className="moderation__badge">
            {t(`state.${comment.state}`, { name: comment.moderatedBy ?? t('anonymous') })}
          </span>
        )}
        {comment.authorBanned && <span className="moderation__badge">{t('state.banned')}</span>}
        {comment.source === 'host' && (
          <span className="moderation__badge moderation__badge--host">{t('state.host')}</span>
        )}
      </p>
      <p className="moderation__text">{comment.text}</p>
      {comment.originalText && (
        <p className="moderation__note">{t('original', { text: comment.originalText })}</p>
      )}
      {children && <div className="moderation__actions">{children}</div>}
    </li>
  );
}

interface SectionProps {
  board: ModerationBoard;
  storeId: string;
  busy: boolean;
  act: (work: () => Promise<unknown>) => Promise<boolean>;
}

function QuestionsQueue({ board, storeId, showId, busy, act }: SectionProps & { showId: string }) {
  const { t } = useStudioTranslation('studio-moderation');
  return (
    <section className="moderation__card" aria-labelledby="moderation-questions">
      <h2 id="moderation-questions">
        {t('questions.title')}{' '}
        <span className="moderation__count">
          {board.questions.filter((q) => q.question === 'open').length}
        </span>
      </h2>
      {board.questions.length === 0 ? (
        <p className="moderation__empty">{t('questions.empty')}</p>
      ) : (
        <ol className="moderation__list">
          {board.questions.map((question) => (
            <CommentRow key={question.uid} comment={question}>
              {question.question === 'answered' ? (
                <p className="moderation__note">
                  {t('questions.answeredBy', {
                    name: question.answeredBy ?? t('anonymous'),
                    how: t(`questions.how.${question.answeredHow ?? 'marked'}`),
                  })}
                </p>
              ) : (
                <AnswerForm question={question} storeId={storeId} showId={showId} busy={busy} act={act} />
              )}
            </CommentRow>
          ))}
        </ol>
      )}
    </section>
  );
}

function AnswerForm({
  question,
  storeId,
  showId,
  busy,
  act,
}: {
  question: ModeratedComment;
  storeId: string;
  showId: string;
  busy: boolean;
  act: SectionProps['act'];
}) {
  const { t } = useStudioTranslation('studio-moderation');
  const [text, setText] = useState('');
  const id = useId();
  const params = { pageUid: storeId, showUid: showId, commentUid: question.uid };
  const answer = async (isPrivate: boolean) => {
    if (!text.trim()) return;
    const done = await act(() =>
      staffCall('answerQuestion', { params, body: { text, private: isPrivate, version: question.version } }),
    );
    if (done) setText('');
  };
  return (
    <form
      className="moderation__answer"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void answer(false);
      }}
    >
      <label htmlFor={id} className="moderation__label">
        {t('questions.answerLabel', { name: question.user.name || t('anonymous') })}
      </label>
      <textarea
        id={id}
        rows={2}
        maxLength={1000}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <div className="moderation__actions">
        <button
          type="submit"
          className="studio-button studio-button--primary"
          disabled={busy || !text.trim()}
        >
          {t('questions.answerPublic')}
        </button>
        <button
          type="button"
          className="studio-button"
          disabled={busy || !text.trim()}
          onClick={() => void answer(true)}
        >
          {t('questions.answerPrivate')}
        </button>
        <button
          type="button"
          className="studio-button studio-button--quiet"
          disabled={busy}
          onClick={() =>
            void act(() =>
              staffCall('moderateComment', {
                params,
                body: { action: 'markAnswered', version: question.version },
              }),
            )
          }
        >
          {t('questions.markAnswered')}
        </button>
      </div>
    </form>
  );
}

function ChatControls({ board, storeId, showId, busy, act }: SectionProps & { showId: string }) {
  const { t } = useStudioTranslation('studio-moderation');
  const params = { pageUid: storeId, showUid: showId };
  const [seconds, setSeconds] = useState(String(board.chat.slowModeSeconds));
  const [announcement, setAnnouncement] = useState('');
  const [words, setWords] = useState(board.settings.blockedWords.join('\n'));
  const [wordAction, setWordAction] = useState(board.settings.blockedWordAction);
  const ids = { seconds: useId(), announcement: useId(), words: useId() };
  return (
    <section className="moderation__card" aria-labelledby="moderation-controls">
      <h2 id="moderation-controls">{t('controls.title')}</h2>
      <form
        className="moderation__row"
        onSubmit={(event) => {
          event.preventDefault();
          void act(() => staffCall('setSlowMode', { params, body: { seconds: Number(seconds) || 0 } }));
        }}
      >
        <label htmlFor={ids.seconds} className="moderation__label">
          {t('slowMode.label')}
          <span className="moderation__note">
            {' '}
            {t('slowMode.current', { seconds: board.chat.slowModeSeconds })}
          </span>
        </label>
        <div className="moderation__inline">
          <input
            id={ids.seconds}
            type="number"
            inputMode="numeric"
            min={0}
            max={600}
            value={seconds}
            onChange={(event) => setSeconds(event.target.value)}
          />
          <button type="submit" className="studio-button" disabled={busy}>
            {t('slowMode.save')}
          </button>
        </div>
      </form>

      <form
        className="moderation__row"
        onSubmit={async (event) => {
          event.preventDefault();
          if (await act(() => staffCall('pinAnnouncement', { params, body: { text: announcement } })))
            setAnnouncement('');
        }}
      >
        <label htmlFor={ids.announcement} className="moderation__label">
          {t('announcement.label')}
        </label>
        {board.chat.announcement && (
          <p className="moderation__pinned">
            <span className="moderation__text">{board.chat.announcement.text}</span>
            <span className="moderation__note">
              {t('announcement.pinnedBy', { name: board.chat.announcementBy ?? t('anonymous') })}
            </span>
          </p>
        )}
        <textarea
          id={ids.announcement}
          rows={2}
          maxLength={280}
          value={announcement}
          onChange={(event) => setAnnouncement(event.target.value)}
        />
        <div className="moderation__actions">
          <button
            type="submit"
            className="studio-button studio-button--primary"
            disabled={busy || !announcement.trim()}
          >
            {t('announcement.pin')}
          </button>
          {board.chat.announcement && (
            <button
              type="button"
              className="studio-button"
              disabled={busy}
              onClick={() => void act(() => staffCall('pinAnnouncement', { params, body: { text: null } }))}
            >
              {t('announcement.unpin')}
            </button>
          )}
        </div>
      </form>

      <form
        className="moderation__row"
        onSubmit={(event) => {
          event.preventDefault();
          const blockedWords = words
            .split('\n')
            .map((word) => word.trim())
            .filter(Boolean);
          void act(() =>
            staffCall('setChatModerationSettings', {
              params: { pageUid: storeId },
              body: { blockedWords, blockedWordAction: wordAction },
            }),
          );
        }}
      >
        <label htmlFor={ids.words} className="moderation__label">
          {t('blocked.label')}
        </label>
        <textarea id={ids.words} rows={3} value={words} onChange={(event) => setWords(event.target.value)} />
        <fieldset className="moderation__choice">
          <legend>{t('blocked.action')}</legend>
          {(['hold', 'mask'] as const).map((choice) => (
            <label key={choice}>
              <input
                type="radio"
                name={`${ids.words}-action`}
                checked={wordAction === choice}
                onChange={() => setWordAction(choice)}
              />{' '}
              {t(`blocked.${choice}`)}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="studio-button" disabled={busy}>
          {t('blocked.save')}
        </button>
      </form>
    </section>
  );
}

function BanList({ board, storeId, busy, act }: SectionProps) {
  const { t } = useStudioTranslation('studio-moderation');
  return (
    <section className="moderation__card" aria-labelledby="moderation-bans">
      <h2 id="moderation-bans">{t('bans.title')}</h2>
      <p className="moderation__note">{t('bans.covers')}</p>
      <label className="moderation__check">
        <input
          type="checkbox"
          checked={board.settings.banByAddress}
          disabled={busy}
          onChange={(event) => {
            const banByAddress = event.target.checked;
            void act(() =>
              staffCall('setChatModerationSettings', {
                params: { pageUid: storeId },
                body: {
                  blockedWords: board.settings.blockedWords,
                  blockedWordAction: board.settings.blockedWordAction,
                  banByAddress,
                },
              }),
            );
          }}
        />{' '}
        {t('bans.byAddress')}
      </label>
      {board.bans.length === 0 ? (
        <p className="moderation__empty">{t('bans.empty')}</p>
      ) : (
        <ul className="moderation__list">
          {board.bans.map((ban) => (
            <li key={ban.userUid} className="moderation__comment">
              <p className="moderation__byline">
                <strong>{ban.userName || t('anonymous')}</strong>{' '}
                <span className="moderation__note">{t('bans.by', { name: ban.bannedBy })}</span>
              </p>
              <button
                type="button"
                className="studio-button"
                disabled={busy}
                onClick={() =>
                  void act(() =>
                    staffCall('unbanViewer', { params: { pageUid: storeId, userUid: ban.userUid } }),
                  )
                }
              >
                {t('bans.unban', { name: ban.userName || t('anonymous') })}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ModerationLog({ board }: { board: ModerationBoard }) {
  const { t } = useStudioTranslation('studio-moderation');
  const locale = useLocale();
  return (
    <section className="moderation__card" aria-labelledby="moderation-log">
      <h2 id="moderation-log">{t('log.title')}</h2>
      {board.log.length === 0 ? (
        <p className="moderation__empty">{t('log.empty')}</p>
      ) : (
        // A scrolling list must be reachable from the keyboard to be read (axe: scrollable-region-focusable).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users can scroll the log
        <ol className="moderation__log" tabIndex={0} aria-labelledby="moderation-log">
          {board.log.map((entry) => (
            <li key={entry.id}>
              <time dateTime={new Date(entry.at).toISOString()}>{locale.time(entry.at)}</time>{' '}
              {t('log.entry', {
                actor: entry.actor,
                action: t(`log.actions.${entry.action}`, { defaultValue: entry.action }),
                target: entry.targetUser ?? '',
              })}
              {entry.detail && <span className="moderation__note"> “{entry.detail}”</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
