import { COMMENT_MAX_LENGTH } from '@vitrine/protocol';
import type { WidgetContext } from '@vitrine/protocol/vocabulary';
import { type FormEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { logFailure } from '../../lib/debug.ts';
import { useFocusOnMount } from '../../lib/use-focus-on-mount.ts';
import { useLocale } from '../../lib/use-locale.ts';
import type { ChatComment, ChatReply } from './chat-comment.ts';
import { Icon } from './icons.tsx';
import { type CallProblem, describeProblem, editComment, postComment } from './interaction-api.ts';
import { useInteractionTranslation } from './interaction-i18n.ts';
import type { Chat } from './use-chat.ts';
import { useViewer, type Viewer } from './use-viewer.ts';

/** Why the viewer cannot post right now; null when they can (spec §4 "Comments"). */
export type ChatClosedReason = 'recording' | 'notYetOpen' | 'turnedOff' | null;

export interface ChatPanelProps {
  chat: Chat;
  viewer: Viewer | null;
  pageUid: string;
  campaignUid: string;
  /** The player's widget context (spec §7 playerComment sends it); null when the route names none. */
  context: WidgetContext | null;
  closedReason: ChatClosedReason;
  /** Asks the viewer for a name (or to sign in); resolves true once they have one. */
  requestName(): Promise<boolean>;
  /** Opens the account or sign-in dialog; null where the context forces anonymous use (no button). */
  openAccount: (() => void) | null;
  /** After a comment is posted, with its text. */
  onCommented(text: string): void;
}

/** An author's name, verified badge and winner badge: always React text, never HTML. */
function Byline({
  name,
  verified,
  isWinner,
  time,
}: {
  name: string;
  verified: boolean;
  isWinner?: boolean;
  time: number;
}) {
  const { t } = useInteractionTranslation();
  const format = useLocale();
  return (
    <span className="chat-byline">
      <span className="comment__author">{name || t('player.anonymousViewer')}</span>
      {verified && (
        <span className="chat-badge chat-badge--verified" title={t('interaction.comments.verified')}>
          <span aria-hidden="true">✓ </span>
          {t('interaction.comments.verified')}
        </span>
      )}
      {isWinner && (
        <span className="chat-badge chat-badge--winner">
          <Icon name="trophy" />
          {t('interaction.comments.winner')}
        </span>
      )}
      <span className="comment__time">{format.time(time)}</span>
    </span>
  );
}

function Reply({ reply }: { reply: ChatReply }) {
  const { t } = useInteractionTranslation();
  return (
    <li className="chat-reply" data-private={reply.private || undefined}>
      <Byline name={reply.userName} verified={reply.verified} time={reply.time} />
      <p className="comment__text">{reply.text}</p>
      {reply.private && <p className="chat-private-note">{t('interaction.comments.onlyYou')}</p>}
    </li>
  );
}

function problemText(problem: CallProblem, t: (key: string, options?: Record<string, unknown>) => string) {
  switch (problem.kind) {
    case 'rateLimited':
      return t('interaction.comments.rateLimited', { count: problem.retryAfterSeconds });
    case 'closed':
      return t('interaction.comments.closed');
    case 'banned':
      return t('interaction.comments.banned');
    case 'slowMode':
      return t('interaction.comments.slowMode', {
        count: problem.retryAfterSeconds,
        seconds: problem.slowModeSeconds,
      });
    case 'invalid':
      return t('interaction.comments.invalid');
    case 'failed':
      return t('interaction.comments.failed');
  }
}

function EditForm({
  comment,
  pageUid,
  campaignUid,
  onDone,
}: {
  comment: ChatComment;
  pageUid: string;
  campaignUid: string;
  onDone(): void;
}) {
  const { t } = useInteractionTranslation();
  return (
    <CommentTextForm
      initialText={comment.text}
      label={t('interaction.comments.editLabel')}
      actionLabel={t('interaction.comments.save')}
      failure="editing a comment failed"
      onDone={onDone}
      submit={async (text) => {
        // Emptied or unchanged: nothing to save, the form just closes.
        if (!text || text === comment.text) return;
        await editComment({ pageUid, campaignUid, commentUid: comment.uid, text });
      }}
    />
  );
}

/**
 * The small form in the chat list (editing one's comment, answering a private reply): one text
 * field, the problem when the call fails, the action and Cancel. `submit` gets the trimmed text;
 * the form closes once it resolves and stays open, saying why, when it throws.
 */
function CommentTextForm({
  initialText = '',
  label,
  placeholder,
  actionLabel,
  needsText = false,
  failure,
  submit,
  onDone,
}: {
  initialText?: string;
  label: string;
  placeholder?: string;
  actionLabel: string;
  /** The action waits for some text (else an empty field is submitted too). */
  needsText?: boolean;
  /** What the debug log says when `submit` fails. */
  failure: string;
  submit(text: string): Promise<void>;
  onDone(): void;
}) {
  const { t } = useInteractionTranslation();
  const [text, setText] = useState(initialText);
  const field = useFocusOnMount<HTMLTextAreaElement>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<CallProblem | null>(null);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || (needsText && !text.trim())) return;
    setBusy(true);
    try {
      await submit(text.trim());
      onDone();
    } catch (error) {
      logFailure(failure, error);
      setProblem(describeProblem(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="chat-edit" onSubmit={(event) => void send(event)}>
      <textarea
        ref={field}
        value={text}
        maxLength={COMMENT_MAX_LENGTH}
        aria-label={label}
        placeholder={placeholder}
        onChange={(event) => setText(event.target.value)}
      />
      {problem && (
        <p className="chat-problem" role="alert">
          {problemText(problem, t)}
        </p>
      )}
      <div className="chat-edit__actions">
        <button type="submit" className="button button--small" disabled={busy || (needsText && !text.trim())}>
          {actionLabel}
        </button>
        <button type="button" className="link-button" onClick={onDone}>
          {t('interaction.comments.cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * The show's chat (spec §2 show player "Comments" tab): comments with their replies, the viewer's
 * own comments editable, a write box with replies, and the reasons posting is closed. Every
 * comment and name is rendered as React text, so markup in them shows literally.
 */
export function ChatPanel({
  chat,
  viewer,
  pageUid,
  campaignUid,
  context,
  closedReason,
  requestName,
  openAccount,
  onCommented,
}: ChatPanelProps) {
  const { t } = useInteractionTranslation();
  const [text, setText] = useState('');
  const [replyTo, setReplyTo] = useState<ChatComment | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<CallProblem | null>(null);
  const [heldNotice, setHeldNotice] = useState(false);
  const endRef = useRef<HTMLDivElement>(null);
  const stickToEnd = useRef(true);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  // Follow new comments while the viewer is at the end of the list; leave them be when they scrolled up.
  useEffect(() => {
    const container = endRef.current?.closest('.player__panel-body, .mobile-sheet__body');
    if (!container) return;
    const onScroll = () => {
      stickToEnd.current = container.scrollHeight - container.scrollTop - container.clientHeight < 80;
    };
    container.addEventListener('scroll', onScroll, { passive: true });
    return () => container.removeEventListener('scroll', onScroll);
  }, []);
  const count =
    chat.comments.length + chat.comments.reduce((sum, comment) => sum + comment.replies.length, 0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls when the number of entries changes
  useLayoutEffect(() => {
    if (stickToEnd.current) endRef.current?.scrollIntoView({ block: 'end' });
  }, [count]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed || busy) return;
    setProblem(null);
    // Spec §6: an anonymous participant enters just a name before taking part.
    // No viewer yet (the anonymous sign-in still on its way) is an anonymous one without a name.
    if ((viewer === null || (viewer.isAnonymous && !viewer.name.trim())) && !(await requestName())) return;
    setBusy(true);
    setHeldNotice(false);
    try {
      const posted = await postComment({
        text: trimmed,
        threadId: replyTo?.uid ?? null,
        pageUid,
        campaignUid,
        // The player's own context; a route without one gets the protocol's default.
        context: context ?? 'checkout',
      });
      // Cleared only if unchanged: what the viewer typed meanwhile stays.
      setText((current) => (current.trim() === trimmed ? '' : current));
      setReplyTo(null);
      setHeldNotice(posted.held === true);
      stickToEnd.current = true;
      onCommented(trimmed);
    } catch (error) {
      logFailure('posting a comment failed', error);
      setProblem(describeProblem(error));
    } finally {
      setBusy(false);
      inputRef.current?.focus();
    }
  };

  return (
    <div className="chat">
      {chat.announcement && (
        // A moderator's text: React text only, never HTML.
        <aside className="chat-announcement" aria-label={t('interaction.comments.announcement')}>
          <span className="chat-announcement__label">{t('interaction.comments.announcement')}</span>
          <p className="chat-announcement__text">{chat.announcement}</p>
        </aside>
      )}
      {chat.comments.length === 0 && !chat.loading ? (
        <p className="panel-empty">{t('player.noComments')}</p>
      ) : (
        <ol className="comment-list" aria-live="polite" aria-label={t('player.tabs.comments')}>
          {chat.comments.map((comment) => {
            const own = viewer !== null && comment.userUid === viewer.uid;
            return (
              <li
                key={comment.uid}
                className="comment"
                data-own={own || undefined}
                data-comment-uid={comment.uid}
              >
                <Byline
                  name={comment.userName}
                  verified={comment.verified}
                  isWinner={comment.isWinner}
                  time={comment.time}
                />
                {editing === comment.uid ? (
                  <EditForm
                    comment={comment}
                    pageUid={pageUid}
                    campaignUid={campaignUid}
                    onDone={() => setEditing(null)}
                  />
                ) : (
                  <p className="comment__text">{comment.text}</p>
                )}
                {comment.held && (
                  <p className="chat-private-note">{t('interaction.comments.heldForReview')}</p>
                )}
                {closedReason === null && editing !== comment.uid && (
                  <div className="comment__actions">
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => {
                        setReplyTo(comment);
                        inputRef.current?.focus();
                      }}
                    >
                      {t('interaction.comments.reply')}
                    </button>
                    {own && (
                      <button type="button" className="link-button" onClick={() => setEditing(comment.uid)}>
                        {t('interaction.comments.edit')}
                      </button>
                    )}
                  </div>
                )}
                {comment.replies.length > 0 && (
                  <ol className="chat-replies">
                    {comment.replies.map((reply) => (
                      <Reply key={reply.uid} reply={reply} />
                    ))}
                  </ol>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <div ref={endRef} />
      {closedReason ? (
        <p className="chat-closed" role="status">
          {t(`interaction.comments.closedReason.${closedReason}`)}
        </p>
      ) : chat.banned ? (
        <p className="chat-closed chat-closed--banned" role="alert">
          {t('interaction.comments.banned')}
        </p>
      ) : (
        <form className="chat-composer" onSubmit={(event) => void send(event)}>
          {replyTo && (
            <p className="chat-composer__replying">
              <span>
                {t('interaction.comments.replyingTo', {
                  name: replyTo.userName || t('player.anonymousViewer'),
                })}
              </span>
              <button type="button" className="link-button" onClick={() => setReplyTo(null)}>
                {t('interaction.comments.cancel')}
              </button>
            </p>
          )}
          {problem && (
            <p className="chat-problem" role="alert">
              {problemText(problem, t)}
            </p>
          )}
          {heldNotice && !problem && (
            <p className="chat-composer__note" role="status">
              {t('interaction.comments.heldForReview')}
            </p>
          )}
          {chat.slowModeSeconds > 0 && (
            <p className="chat-composer__note">
              {t('interaction.comments.slowModeOn', { count: chat.slowModeSeconds })}
            </p>
          )}
          <div className="chat-composer__row">
            <textarea
              ref={inputRef}
              className="chat-composer__input"
              rows={1}
              value={text}
              maxLength={COMMENT_MAX_LENGTH}
              placeholder={t('interaction.comments.placeholder')}
              aria-label={t('interaction.comments.placeholder')}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  event.currentTarget.form?.requestSubmit();
                }
              }}
            />
            <button type="submit" className="button button--small" disabled={busy || !text.trim()}>
              {t('interaction.comments.send')}
            </button>
          </div>
          <p className="chat-composer__who">
            {viewer && (viewer.name || !viewer.isAnonymous) ? (
              <span>{t('interaction.comments.chattingAs', { name: viewer.name || viewer.email || '' })}</span>
            ) : null}
            {openAccount && (
              <button type="button" className="link-button" onClick={openAccount}>
                {viewer && !viewer.isAnonymous
                  ? t('interaction.account.title')
                  : t('interaction.account.signIn')}
              </button>
            )}
          </p>
        </form>
      )}
    </div>
  );
}

/** The "Private comments" tab: host replies only this viewer receives (spec §4, §6). */
export function PrivateChatPanel({
  chat,
  pageUid,
  campaignUid,
  context,
}: {
  chat: Chat;
  pageUid: string;
  campaignUid: string;
  context: WidgetContext | null;
}) {
  const { t } = useInteractionTranslation();
  const [answering, setAnswering] = useState<string | null>(null);
  const viewer = useViewer();
  const ask = (
    <AskHostForm
      signedIn={viewer !== null && !viewer.isAnonymous}
      pageUid={pageUid}
      campaignUid={campaignUid}
      context={context}
    />
  );
  if (chat.privateComments.length === 0)
    return (
      <>
        {ask}
        <p className="panel-empty">{t('player.noPrivateComments')}</p>
      </>
    );
  return (
    <>
      {ask}
      <ol className="comment-list" aria-label={t('player.tabs.privateComments')}>
        {chat.privateComments.map((comment) => (
          <li key={comment.uid} className="comment comment--private" data-comment-uid={comment.uid}>
            <Byline name={comment.userName} verified={comment.verified} time={comment.time} />
            <p className="comment__text">{comment.text}</p>
            <p className="chat-private-note">{t('interaction.comments.onlyYou')}</p>
            {comment.replies.length > 0 && (
              <ol className="chat-replies">
                {comment.replies.map((reply) => (
                  <Reply key={reply.uid} reply={{ ...reply, private: false }} />
                ))}
              </ol>
            )}
            {answering === comment.uid ? (
              <AnswerForm
                threadId={comment.uid}
                pageUid={pageUid}
                campaignUid={campaignUid}
                context={context}
                onDone={() => setAnswering(null)}
              />
            ) : (
              <div className="comment__actions">
                <button type="button" className="link-button" onClick={() => setAnswering(comment.uid)}>
                  {t('interaction.comments.reply')}
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}

/**
 * A signed-in shopper's private question to the host (issue 27): only she and the store's staff
 * read it, and it waits in the control room's questions. Anonymous viewers are told to sign in,
 * so the host has an account to answer.
 */
function AskHostForm({
  signedIn,
  pageUid,
  campaignUid,
  context,
}: {
  signedIn: boolean;
  pageUid: string;
  campaignUid: string;
  context: WidgetContext | null;
}) {
  const { t } = useInteractionTranslation();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [problem, setProblem] = useState<CallProblem | null>(null);
  if (!signedIn)
    return <p className="chat-ask-host chat-ask-host--sign-in">{t('interaction.comments.askHostSignIn')}</p>;
  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() || busy) return;
    setBusy(true);
    setProblem(null);
    try {
      await postComment({
        text: text.trim(),
        threadId: null,
        pageUid,
        campaignUid,
        context: context ?? 'checkout',
        toHost: true,
      });
      setText('');
      setSent(true);
    } catch (error) {
      logFailure('asking the host failed', error);
      setProblem(describeProblem(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="chat-edit chat-ask-host" onSubmit={(event) => void send(event)}>
      <textarea
        value={text}
        maxLength={COMMENT_MAX_LENGTH}
        aria-label={t('interaction.comments.askHostLabel')}
        placeholder={t('interaction.comments.askHostLabel')}
        onChange={(event) => {
          setText(event.target.value);
          setSent(false);
        }}
      />
      {problem && (
        <p className="chat-problem" role="alert">
          {problemText(problem, t)}
        </p>
      )}
      <p className="chat-private-note" role="status">
        {sent ? t('interaction.comments.askHostSent') : t('interaction.comments.askHostNote')}
      </p>
      <button type="submit" className="button" disabled={busy || !text.trim()}>
        {t('interaction.comments.askHostSend')}
      </button>
    </form>
  );
}

/** An answer to a private host reply; the server keeps it between the viewer and the host. */
function AnswerForm({
  threadId,
  pageUid,
  campaignUid,
  context,
  onDone,
}: {
  threadId: string;
  pageUid: string;
  campaignUid: string;
  context: WidgetContext | null;
  onDone(): void;
}) {
  const { t } = useInteractionTranslation();
  return (
    <CommentTextForm
      label={t('interaction.comments.placeholder')}
      placeholder={t('interaction.comments.placeholder')}
      actionLabel={t('interaction.comments.send')}
      needsText
      failure="answering a private reply failed"
      onDone={onDone}
      submit={(text) =>
        postComment({ text, threadId, pageUid, campaignUid, context: context ?? 'checkout' }).then(
          () => undefined,
        )
      }
    />
  );
}
