import type { FlashDealPresentation, LiveEvent } from '@vitrine/protocol';
import { lazy, type RefObject, useMemo } from 'react';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
import { LazyPart } from './lazy-part.tsx';

const FlashDealBanner = lazy(() => import('./flash-deal-banner.tsx'));

const NO_DEALS: FlashDealPresentation[] = [];

/**
 * The player's way into flash deals (issue 30 §3): follows the campaign presentation's deals and
 * loads the banner's code only once the host has started one, so shows without deals never
 * download it. Mounted from the moment a deal is started (before the viewer's video reaches the
 * start), so the banner shows on the very frame that reaches it.
 */
export function FlashDeals({
  pageUid,
  campaignUid,
  event,
  videoRef,
}: {
  pageUid: string;
  campaignUid: string;
  event: LiveEvent;
  videoRef: RefObject<HTMLVideoElement | null>;
}) {
  const presentation = useLiveQuery('campaignPresentations', { pageUid, campaignUid });
  const deals = presentation.docs[0]?.flashDeals ?? NO_DEALS;
  // One list per document: the banner follows its frames only again when the deals change.
  const started = useMemo(() => deals.filter((deal) => deal.startedAt !== null), [deals]);
  if (started.length === 0) return null;
  return (
    <LazyPart name="flash-deal">
      <FlashDealBanner
        pageUid={pageUid}
        campaignUid={campaignUid}
        event={event}
        videoRef={videoRef}
        deals={started}
      />
    </LazyPart>
  );
}
