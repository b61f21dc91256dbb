import { flashDealChapter, formatDuration } from '@vitrine/domain';
import type { EventProduct, LiveEvent } from '@vitrine/protocol';
import { useTranslation } from 'react-i18next';
import { INTERACTION_NAMESPACE } from '../../lib/i18n.ts';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';

/**
 * The replay's chapter marks of the show's flash deals (issue 30 §3): where each deal was open in
 * the video, marked as ended (a replay never offers the deal price).
 */
export function FlashDealChapters({
  pageUid,
  campaignUid,
  event,
  products,
}: {
  pageUid: string;
  campaignUid: string;
  event: LiveEvent;
  products: readonly EventProduct[];
}) {
  const { t } = useTranslation([INTERACTION_NAMESPACE, 'translation'], { useSuspense: true });
  const presentation = useLiveQuery('campaignPresentations', { pageUid, campaignUid });
  const marks = (presentation.docs[0]?.flashDeals ?? []).flatMap((deal) => {
    const chapter = flashDealChapter(deal, event);
    if (!chapter) return [];
    const name = products.find((product) => product.product.uid === deal.productUid)?.product.name ?? '';
    return [{ uid: deal.uid, start: chapter.start, name }];
  });
  if (marks.length === 0) return null;
  return (
    <ol className="video-chapters__list video-chapters__deals" data-testid="flash-deal-chapters">
      {marks
        .sort((a, b) => a.start - b.start)
        .map((mark) => (
          <li key={mark.uid} className="video-chapters__chapter video-chapters__chapter--deal">
            <span className="video-chapters__time">{formatDuration(Math.max(0, mark.start))}</span>
            <span className="video-chapters__name">
              {t('interaction.chapters.flashDeal', { name: mark.name })}
            </span>
          </li>
        ))}
    </ol>
  );
}
