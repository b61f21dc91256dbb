import type { CompetitionAdminView, ControlRoomStats } from '@vitrine/protocol';
import { useState } from 'react';
import { CompetitionList } from '../shows/competitions-panel.tsx';
import { staffCall } from '../studio-api.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { useStaffAction } from '../use-staff-action.ts';

/** What the live numbers say of the competitions: a change (an entry, a close, a draw) reloads them. */
const competitionsKey = (stats: ControlRoomStats | null) =>
  (stats?.competitions ?? [])
    .map((c) => `${c.uid}:${c.participantCount}:${c.openForParticipation}:${c.winnerCount}`)
    .join(' ');

/**
 * The show's raffles, quizzes and polls during the show: open one (viewers see it), close it,
 * draw a winner, announce the result to every entrant, or prepare a new one. Entry counts follow
 * the room's live numbers.
 */
export function RoomCompetitions({
  pageUid,
  showUid,
  stats,
}: {
  pageUid: string;
  showUid: string;
  stats: ControlRoomStats | null;
}) {
  return (
    <CompetitionList
      showUid={showUid}
      namespace="studio-control-room"
      block="room-competitions"
      reloadKey={competitionsKey(stats)}
    >
      {(competition, reload) => (
        <CompetitionItem
          key={competition.uid}
          competition={competition}
          params={{ pageUid, showUid, competitionUid: competition.uid }}
          onChanged={reload}
        />
      )}
    </CompetitionList>
  );
}

function CompetitionItem({
  competition,
  params,
  onChanged,
}: {
  competition: CompetitionAdminView;
  params: { pageUid: string; showUid: string; competitionUid: string };
  onChanged: () => void;
}) {
  const { t } = useStudioTranslation('studio-control-room');
  const { busy, failure, run } = useStaffAction(t('competitions.actionFailed'));
  const [done, setDone] = useState<string | null>(null);

  const act = (work: () => Promise<string | null>) => {
    setDone(null);
    return run(async () => {
      setDone(await work());
      onChanged();
    });
  };
  const setOpen = (open: boolean) =>
    act(async () => {
      await staffCall('updateShowCompetition', {
        params,
        body: open ? { openForParticipation: true, playing: true } : { openForParticipation: false },
      });
      return null;
    });
  const draw = () =>
    act(async () => {
      const { winners } = await staffCall('drawShowCompetitionWinners', { params, body: { count: 1 } });
      return t('competitions.drawn', { names: winners.map((winner) => winner.name).join(', ') });
    });
  // The result everyone who took part is told: the poll's votes, else the winners.
  const resultText =
    competition.type === 'poll'
      ? competition.options
          .map((option) => `${option.text}: ${competition.tally[option.id] ?? 0}`)
          .join(' · ')
      : competition.winners.map((winner) => winner.name).join(', ');
  const announce = () =>
    act(async () => {
      const { notified } = await staffCall('announceShowCompetition', {
        params,
        body: { title: competition.name, body: resultText },
      });
      return t('competitions.announced', { count: notified });
    });

  // Each action's button says which competition it acts on to a screen reader (several are listed).
  const action = (label: string, onClick: () => void, variant = '', unavailable = false) => (
    <button
      type="button"
      className={`studio-button${variant}`}
      disabled={busy || unavailable}
      onClick={onClick}
    >
      {label}
      <span className="visually-hidden"> {competition.name}</span>
    </button>
  );

  return (
    <li className="room-competitions__item" data-competition-uid={competition.uid}>
      <div className="room-competitions__head">
        <span className="studio-badge">{t(`competitions.types.${competition.type}`)}</span>{' '}
        <strong>{competition.name}</strong>
        <span className="studio-small studio-muted">
          {' '}
          · {t('competitions.entries', { count: competition.participantCount })} ·{' '}
          {competition.openForParticipation ? t('competitions.open') : t('competitions.closed')}
        </span>
      </div>
      {competition.type === 'poll' && competition.options.length > 0 && (
        <ul className="room-competitions__tally">
          {competition.options.map((option) => (
            <li key={option.id}>
              {option.text}: <strong>{competition.tally[option.id] ?? 0}</strong>
            </li>
          ))}
        </ul>
      )}
      {competition.winners.length > 0 && (
        <p className="studio-small">
          {t('competitions.winners', { names: competition.winners.map((winner) => winner.name).join(', ') })}
        </p>
      )}
      <div className="room-competitions__actions">
        {competition.openForParticipation
          ? action(t('competitions.close'), () => void setOpen(false))
          : action(t('competitions.openAction'), () => void setOpen(true), ' studio-button--primary')}
        {competition.type !== 'poll' && action(t('competitions.draw'), () => void draw())}
        {action(
          t('competitions.announce'),
          () => void announce(),
          ' studio-button--quiet',
          resultText === '',
        )}
      </div>
      <ErrorNotice message={failure} />
      {done && (
        <p role="status" className="studio-small">
          {done}
        </p>
      )}
    </li>
  );
}
