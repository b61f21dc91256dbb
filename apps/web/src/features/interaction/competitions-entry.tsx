import { sortCompetitions } from '@vitrine/domain';
import type { CompetitionPresentation, LiveEvent } from '@vitrine/protocol';
import { lazy, type RefObject, useMemo, useState } from 'react';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
import { useCompetitionsAsReached } from './competition-clock.ts';
import { Icon } from './icons.tsx';
import { useInteractionTranslation } from './interaction-i18n.ts';
import { LazyPart } from './lazy-part.tsx';
import type { Viewer } from './use-viewer.ts';

const CompetitionsLayer = lazy(() => import('./competitions.tsx'));

const NO_COMPETITIONS: CompetitionPresentation[] = [];
const NOBODY = { competitionsParticipated: [], competitionsDismissed: [] };

/**
 * The player's way into competitions and polls (spec §2 "Competitions and polls panel"): follows
 * the campaign presentation's competitions and loads the panel and overlay code only once there
 * is something to show, so shows without competitions never download it. Each competition shows
 * as it was at the moment the viewer's video shows (issue 15 §9): opened, closed and drawn when
 * the video reaches the moment the host did it.
 */
export function Competitions({
  pageUid,
  campaignUid,
  viewer,
  event,
  videoRef,
  noticeDelayMs,
  requestName,
}: {
  pageUid: string;
  campaignUid: string;
  viewer: Viewer | null;
  event: LiveEvent;
  videoRef: RefObject<HTMLVideoElement | null>;
  noticeDelayMs(): number;
  requestName(): Promise<boolean>;
}) {
  const { t } = useInteractionTranslation();
  const presentation = useLiveQuery('campaignPresentations', { pageUid, campaignUid });
  const [panelOpen, setPanelOpen] = useState(false);
  const competitions = presentation.docs[0]?.competitions ?? NO_COMPETITIONS;
  const onsite = useMemo(() => competitions.filter((competition) => competition.showOnsite), [competitions]);
  const reached = useCompetitionsAsReached(videoRef, event, onsite);
  const listed = sortCompetitions(reached, viewer ?? NOBODY);
  if (onsite.length === 0 && !panelOpen) return null;
  return (
    <>
      {(listed.length > 0 || panelOpen) && (
        <button
          type="button"
          className="competitions-button"
          aria-expanded={panelOpen}
          onClick={() => setPanelOpen((open) => !open)}
        >
          <Icon name="gift" />
          <span>{t('interaction.competitions.button')}</span>
          <span className="competitions-button__count">{listed.length}</span>
        </button>
      )}
      {/*
        Mounted while the show has any competition, even one the video has not reached yet: its code
        has loaded by then, so the competition appears on the very frame that reaches it (a lazy
        part revealed later would wait for the download, and React's reveal throttle). Its state (a
        "you're in" confirmation) also outlives the overlay rule.
      */}
      <LazyPart name="competitions">
        <CompetitionsLayer
          pageUid={pageUid}
          campaignUid={campaignUid}
          competitions={reached}
          viewer={viewer}
          noticeDelayMs={noticeDelayMs}
          panelOpen={panelOpen}
          onClosePanel={() => setPanelOpen(false)}
          requestName={requestName}
        />
      </LazyPart>
    </>
  );
}
