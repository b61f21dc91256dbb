import {
  type CompetitionViewerState,
  competitionDescription,
  competitionViewerState,
  isParticipationIgnored,
  overlayCompetition,
  sortCompetitions,
  winnerNoticeWaitMs,
  winnerNotificationShowAt,
} from '@vitrine/domain';
import { COMMENT_MAX_LENGTH, type CompetitionPresentation } from '@vitrine/protocol';
import { type CSSProperties, type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { logFailure } from '../../lib/debug.ts';
import { type CallProblem, describeProblem, dismissCompetition, participate } from './interaction-api.ts';
import { useInteractionTranslation } from './interaction-i18n.ts';
import { useOptionalLiveQuery } from './use-optional-live-query.ts';
import type { Viewer } from './use-viewer.ts';
import './competitions.css';

const NOBODY = { competitionsParticipated: [], competitionsDismissed: [] };
/** How long the overlay keeps showing "You're in" after the viewer took part. */
const JOINED_CONFIRMATION_MS = 4000;

export interface CompetitionsLayerProps {
  pageUid: string;
  campaignUid: string;
  competitions: readonly CompetitionPresentation[];
  viewer: Viewer | null;
  /** The video delay now (measured on a live stream), read once per win. */
  noticeDelayMs(): number;
  panelOpen: boolean;
  onClosePanel(): void;
  requestName(): Promise<boolean>;
}

/**
 * The competitions the viewer has won, announced only once their winner notification may show
 * (the video delay plus 5 seconds after the draw, spec §4), so the panel does not tell before
 * the video does. Until then each check reads the delay again, as the notice does, so both tell together.
 */
function useWonCompetitions(
  viewer: Viewer | null,
  campaignUid: string,
  noticeDelayMs: () => number,
): string[] {
  const notifications = useOptionalLiveQuery(
    'notifications',
    viewer ? { userUid: viewer.uid, campaignUid } : null,
  );
  const [now, setNow] = useState(() => Date.now());
  const showTimes = useRef(new Map<string, number>());
  // Due by the notice stack's own rule (winnerNoticeWaitMs), so the panel and the notice agree.
  const isDue = (showAt: number) => winnerNoticeWaitMs(showAt, now) === null;
  const wins = notifications.docs.flatMap((doc) => {
    const uid = doc.metaData.competitionUid;
    if (doc.metaData.isCompetitionWinner !== true || typeof uid !== 'string') return [];
    let showAt = showTimes.current.get(doc.uid);
    if (showAt === undefined || !isDue(showAt)) {
      showAt = winnerNotificationShowAt(doc.created, noticeDelayMs());
      showTimes.current.set(doc.uid, showAt);
    }
    return [{ uid, showAt }];
  });
  const nextShowAt = Math.min(...wins.filter((win) => !isDue(win.showAt)).map((win) => win.showAt));
  // biome-ignore lint/correctness/useExhaustiveDependencies: each look (a new `now`) sets the next, even when the moment it computes has not moved.
  useEffect(() => {
    if (!Number.isFinite(nextShowAt)) return;
    // Looked at again every recheck while it waits: the viewer's delay changes meanwhile.
    const timer = setTimeout(() => setNow(Date.now()), winnerNoticeWaitMs(nextShowAt, Date.now()) ?? 0);
    return () => clearTimeout(timer);
  }, [nextShowAt, now]);
  return wins.filter((win) => isDue(win.showAt)).map((win) => win.uid);
}

function PollResults({ competition }: { competition: CompetitionPresentation }) {
  const { t } = useInteractionTranslation();
  const total = Object.values(competition.tally).reduce((sum, votes) => sum + votes, 0);
  return (
    <ul className="poll-results" aria-label={t('interaction.competitions.results')}>
      {competition.options.map((option) => {
        const votes = competition.tally[option.id] ?? 0;
        const percent = total === 0 ? 0 : Math.round((votes / total) * 100);
        return (
          <li key={option.id} style={{ '--share': `${percent}%` } as CSSProperties}>
            <span className="poll-results__text">{option.text}</span>
            <span className="poll-results__percent">
              {t('interaction.competitions.percent', { percent })}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** One competition: its description, the way to take part, and what became of it. */
function CompetitionCard({
  competition,
  state,
  pageUid,
  campaignUid,
  onDismiss,
  onParticipated,
  requestName,
  viewer,
}: {
  competition: CompetitionPresentation;
  state: CompetitionViewerState;
  pageUid: string;
  campaignUid: string;
  onDismiss?: () => void;
  onParticipated?: () => void;
  requestName(): Promise<boolean>;
  viewer: Viewer | null;
}) {
  const { t } = useInteractionTranslation();
  const [text, setText] = useState('');
  const [optionId, setOptionId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<CallProblem | 'empty' | null>(null);
  const hasOptions = competition.type !== 'raffle' && competition.options.length > 0;
  const chosen = competition.options.find((option) => option.id === optionId);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    // A quiz answer or poll vote is its option; a raffle entry is the viewer's comment.
    const entry = (text.trim() || chosen?.text || '').slice(0, COMMENT_MAX_LENGTH);
    // Spec §5: a participation with empty text is ignored, so it is not sent at all.
    if (isParticipationIgnored(entry) || (hasOptions && !chosen)) {
      setProblem('empty');
      return;
    }
    setProblem(null);
    // Spec §5: anonymous participation requires a name.
    // No viewer yet (the anonymous sign-in still on its way) is an anonymous one without a name.
    if ((viewer === null || (viewer.isAnonymous && !viewer.name.trim())) && !(await requestName())) return;
    setBusy(true);
    try {
      const answer = await participate({
        pageUid,
        campaignUid,
        competitionUid: competition.uid,
        text: entry,
        ...(chosen ? { optionId: chosen.id } : {}),
      });
      if (answer.status === 'ignored') setProblem('empty');
      else onParticipated?.();
    } catch (error) {
      // Spec §8: competition update failures are logged; the viewer sees that it did not work.
      logFailure('taking part in a competition failed', error);
      setProblem(describeProblem(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article className="competition-card" data-state={state} data-type={competition.type}>
      <header className="competition-card__header">
        <span className="competition-card__type">
          {t(`interaction.competitions.type.${competition.type}`)}
        </span>
        <h3 className="competition-card__name">{competition.name}</h3>
      </header>
      {/* The description falls back to the name (spec §5); then the heading already says it. */}
      {competitionDescription(competition) !== competition.name && (
        <p className="competition-card__description">{competitionDescription(competition)}</p>
      )}
      {state === 'participate' && (
        <form className="competition-card__form" onSubmit={(event) => void submit(event)}>
          {hasOptions && (
            <fieldset className="competition-options">
              <legend className="visually-hidden">{competition.name}</legend>
              {competition.options.map((option) => (
                <label
                  key={option.id}
                  className="competition-option"
                  data-chosen={option.id === optionId || undefined}
                >
                  <input
                    type="radio"
                    name={`competition-${competition.uid}`}
                    value={option.id}
                    checked={option.id === optionId}
                    onChange={() => setOptionId(option.id)}
                  />
                  <span>{option.text}</span>
                </label>
              ))}
            </fieldset>
          )}
          {competition.type === 'raffle' && (
            <input
              className="competition-card__input"
              value={text}
              maxLength={COMMENT_MAX_LENGTH}
              placeholder={t('interaction.competitions.entryPlaceholder')}
              aria-label={t('interaction.competitions.entryPlaceholder')}
              onChange={(event) => setText(event.target.value)}
            />
          )}
          {problem && (
            <p className="chat-problem" role="alert">
              {problem === 'empty'
                ? t(
                    hasOptions
                      ? 'interaction.competitions.chooseOption'
                      : 'interaction.competitions.emptyEntry',
                  )
                : problem.kind === 'rateLimited'
                  ? t('interaction.comments.rateLimited', { count: problem.retryAfterSeconds })
                  : problem.kind === 'closed'
                    ? t('interaction.competitions.closed')
                    : t('interaction.competitions.failed')}
            </p>
          )}
          <div className="competition-card__actions">
            <button type="submit" className="button button--small" disabled={busy}>
              {t(`interaction.competitions.participate.${competition.type}`)}
            </button>
            {onDismiss && (
              <button type="button" className="link-button" onClick={onDismiss}>
                {t('interaction.competitions.dismiss')}
              </button>
            )}
          </div>
        </form>
      )}
      {state === 'participated' && (
        <p className="competition-card__status">
          {t(`interaction.competitions.participated.${competition.type}`)}
        </p>
      )}
      {state === 'drawn' && <p className="competition-card__status">{t('interaction.competitions.drawn')}</p>}
      {state === 'winner' && (
        <p className="competition-card__status competition-card__status--winner">
          {t('interaction.competitions.youWon')}
        </p>
      )}
      {state === 'closed' && (
        <p className="competition-card__status">{t('interaction.competitions.closed')}</p>
      )}
      {competition.type === 'poll' && state !== 'participate' && <PollResults competition={competition} />}
      {competition.winners.length > 0 && (
        <p className="competition-card__winners">
          {t('interaction.competitions.winners', {
            names: competition.winners.map((winner) => winner.name || t('player.anonymousViewer')).join(', '),
          })}
        </p>
      )}
    </article>
  );
}

/**
 * The competitions overlay and panel (spec §2, §4 "Competitions"): the overlay presents the
 * competition that is playing, open, not dismissed and not participated; the panel lists open
 * ones and those taken part in, open first, then not participated, then latest cue. A viewer
 * goes participate → participated → winner announced.
 */
export default function CompetitionsLayer({
  pageUid,
  campaignUid,
  competitions,
  viewer,
  noticeDelayMs,
  panelOpen,
  onClosePanel,
  requestName,
}: CompetitionsLayerProps) {
  const { t } = useInteractionTranslation();
  const won = useWonCompetitions(viewer, campaignUid, noticeDelayMs);
  // Dismissed here at once; the user record confirms it a moment later.
  const [dismissedHere, setDismissedHere] = useState<string[]>([]);
  const who = useMemo(
    () =>
      viewer
        ? { ...viewer, competitionsDismissed: [...viewer.competitionsDismissed, ...dismissedHere] }
        : { ...NOBODY, competitionsDismissed: dismissedHere },
    [viewer, dismissedHere],
  );
  // The overlay stays a moment after taking part, so the viewer sees that it worked.
  const [joined, setJoined] = useState<string | null>(null);
  useEffect(() => {
    if (!joined) return;
    const timer = setTimeout(() => setJoined(null), JOINED_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [joined]);
  const overlay =
    (viewer ? overlayCompetition(competitions, who) : null) ??
    competitions.find((competition) => competition.uid === joined) ??
    null;
  const listed = sortCompetitions(competitions, who);

  const dismiss = (competition: CompetitionPresentation) => {
    setDismissedHere((current) => [...current, competition.uid]);
    dismissCompetition({ pageUid, campaignUid, competitionUid: competition.uid }).catch((error: unknown) =>
      logFailure('dismissing a competition failed', error),
    );
  };
  const card = (competition: CompetitionPresentation, onDismiss?: () => void) => (
    <CompetitionCard
      key={competition.uid}
      competition={competition}
      state={competitionViewerState(competition, who, won)}
      pageUid={pageUid}
      campaignUid={campaignUid}
      requestName={requestName}
      viewer={viewer}
      onParticipated={() => setJoined(competition.uid)}
      {...(onDismiss ? { onDismiss } : {})}
    />
  );

  return (
    <>
      {overlay && !panelOpen && (
        <section className="competition-overlay" aria-label={t('interaction.competitions.title')}>
          {card(overlay, () => dismiss(overlay))}
        </section>
      )}
      {panelOpen && (
        <section className="competitions-panel" aria-label={t('interaction.competitions.title')}>
          <header className="competitions-panel__header">
            <h2>{t('interaction.competitions.title')}</h2>
            <button type="button" className="link-button" onClick={onClosePanel}>
              {t('player.close')}
            </button>
          </header>
          <div className="competitions-panel__body">
            {listed.length === 0 ? (
              <p className="panel-empty">{t('interaction.competitions.none')}</p>
            ) : (
              listed.map((competition) => card(competition))
            )}
          </div>
        </section>
      )}
    </>
  );
}
