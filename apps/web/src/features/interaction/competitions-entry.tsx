import { sortCompetitions } from '@vitrine/domain';
import type { CompetitionPresentation } from '@vitrine/protocol';
import { lazy, useMemo, useState } from 'react';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
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
 * is something to show, so shows without competitions never download it.
 */
export function Competitions({
  pageUid,
  campaignUid,
  viewer,
  videoDelayMs,
  requestName,
}: {
  pageUid: string;
  campaignUid: string;
  viewer: Viewer | null;
  videoDelayMs: number;
  requestName(): Promise<boolean>;
}) {
  const { t } = useInteractionTranslation();
  const presentation = useLiveQuery('campaignPresentations', { pageUid, campaignUid });
  const [panelOpen, setPanelOpen] = useState(false);
  const competitions = presentation.docs[0]?.competitions ?? NO_COMPETITIONS;
  const onsite = useMemo(() => competitions.filter((competition) => competition.showOnsite), [competitions]);
  const listed = sortCompetitions(onsite, viewer ?? NOBODY);
  if (listed.length === 0 && !panelOpen) return null;
  return (
    <>
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
      {/* Mounted while anything is listed, so its state (a "you're in" confirmation) outlives the overlay rule. */}
      <LazyPart name="competitions">
        <CompetitionsLayer
          pageUid={pageUid}
          campaignUid={campaignUid}
          competitions={onsite}
          viewer={viewer}
          videoDelayMs={videoDelayMs}
          panelOpen={panelOpen}
          onClosePanel={() => setPanelOpen(false)}
          requestName={requestName}
        />
      </LazyPart>
    </>
  );
}
