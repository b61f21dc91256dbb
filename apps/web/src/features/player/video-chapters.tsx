import { formatDuration } from '@vitrine/domain';
import type { EventProduct, LiveEvent } from '@vitrine/protocol';
import { useTranslation } from 'react-i18next';
import { INTERACTION_NAMESPACE } from '../../lib/i18n.ts';
import { FlashDealChapters } from './flash-deal-chapters.tsx';

export interface VideoChaptersProps {
  products: readonly EventProduct[];
  /** Where the product's chapter starts in the video (its first cue), or null without a cue. */
  chapterStart(product: EventProduct): number | null;
  activeUid: string | null;
  onJumpToCue(product: EventProduct): void;
  /** Flash deals hook (issue 30 §3): the show whose deals are marked among the chapters. */
  flashDeals?: { pageUid: string; campaignUid: string; event: LiveEvent };
}

/**
 * The "Video" tab (spec §2 player tabs): the show's chapters, one per product with a cue, in
 * video order; choosing one plays the video from the moment that product is shown. Loaded on
 * demand, with its texts, when the tab is first opened.
 */
export default function VideoChapters({
  products,
  chapterStart,
  activeUid,
  onJumpToCue,
  flashDeals,
}: VideoChaptersProps) {
  // Suspends (inside the player's LazyPart) until the texts of the player's on-demand parts are in.
  const { t } = useTranslation([INTERACTION_NAMESPACE, 'translation'], { useSuspense: true });
  const chapters = products
    .flatMap((product) => {
      const start = chapterStart(product);
      return start === null ? [] : [{ product, start }];
    })
    .sort((a, b) => a.start - b.start);

  return (
    <section className="video-chapters" aria-labelledby="video-chapters-title">
      <h2 id="video-chapters-title" className="video-chapters__title">
        {t('interaction.chapters.title')}
      </h2>
      {chapters.length === 0 ? (
        <p className="panel-empty">{t('interaction.chapters.empty')}</p>
      ) : (
        <>
          <p className="video-chapters__lead">{t('interaction.chapters.lead')}</p>
          <ol className="video-chapters__list">
            {chapters.map(({ product, start }) => (
              <li key={product.uid}>
                <button
                  type="button"
                  className="video-chapters__chapter"
                  aria-current={product.uid === activeUid || undefined}
                  onClick={() => onJumpToCue(product)}
                >
                  <span className="video-chapters__time">{formatDuration(start)}</span>
                  {product.product.images[0] && <img src={product.product.images[0]} alt="" />}
                  <span className="video-chapters__name">{product.product.name}</span>
                </button>
              </li>
            ))}
          </ol>
        </>
      )}
      {flashDeals && <FlashDealChapters {...flashDeals} products={products} />}
    </section>
  );
}
