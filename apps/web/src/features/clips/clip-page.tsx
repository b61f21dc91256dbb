import { priceFor, shownCurrency } from '@vitrine/domain';
import type { PublicClip } from '@vitrine/protocol';
import { EMBED_QUERY } from '@vitrine/protocol/embed-query';
import { webPath } from '@vitrine/protocol/web-paths';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { afterNextPaint } from '../../lib/after-next-paint.ts';
import { ApiError, call, firstCall } from '../../lib/api.ts';
import { logFailure } from '../../lib/debug.ts';
import { registerNamespaceLoader } from '../../lib/i18n.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { addSingle } from '../checkout/cart-api.ts';
import { currentEmbedParams } from '../host-bridge/embed-params.ts';
import type { PlayerToHostPayload } from '../host-bridge/host-messages.ts';
import './clip-page.css';

// The clip page's texts load with its code, never with the player's first bundle.
registerNamespaceLoader('clips', (language) => import(`../../locales/clips/${language}.json`));

/**
 * Posts a message to the page that embedded this one through the SDK (none when not embedded).
 * The envelope's checks (and zod with the schemas, 26 KB) load only then: a clip opened from a
 * shared link paints without them.
 */
function tellHost<T extends 'player_ready' | 'close'>(type: T, payload: PlayerToHostPayload<T>) {
  const params = currentEmbedParams();
  if (!params || window.parent === window) return;
  import('../host-bridge/host-messages.ts').then(
    ({ encodePlayerMessage }) => {
      const message = encodePlayerMessage(params.playerId, type, payload);
      if (message) window.parent.postMessage(message, params.hostOrigin);
    },
    (error: unknown) => logFailure('loading the host messages', error),
  );
}

/**
 * The clip's video, on its poster (its first frame) until the video can play. On a slow phone the
 * poster is the page's largest paint: the video's file is asked for once the poster is painted,
 * so its bytes do not share the line with the poster and the app's script (bench/lighthouse).
 * A clip cut before posters plays at once.
 */
function ClipVideo({ clip }: { clip: PublicClip }) {
  const poster = clip.posterUrl ? `${runtimeConfig.mainUrl}${clip.posterUrl}` : undefined;
  const [posterPainted, setPosterPainted] = useState(poster === undefined);
  useEffect(() => {
    if (poster === undefined) return;
    let current = true;
    const painted = () => afterNextPaint(() => current && setPosterPainted(true));
    // The head preloaded it: this load is the cached picture's, at once.
    const picture = new Image();
    picture.onload = painted;
    picture.onerror = painted;
    picture.src = poster;
    return () => {
      current = false;
    };
  }, [poster]);
  return (
    <video
      src={posterPainted ? `${runtimeConfig.mainUrl}${clip.videoUrl}` : undefined}
      poster={poster}
      controls
      playsInline
      muted
      autoPlay
      loop
      preload="metadata"
      data-clip-video
    />
  );
}

type Loaded =
  | { status: 'loading' }
  | { status: 'none' }
  | { status: 'failed' }
  | { status: 'ready'; clip: PublicClip };
type Adding = 'idle' | 'adding' | 'added' | 'refused' | 'failed';

/**
 * A clip cut from a show (issue 32 item 4): the video, and beside it the product it sells with
 * an add to cart through the store's cart. At `/widget/{pageUid}/clips/{clipUid}` it is the
 * clip's own page; at `/widget/{pageUid}/clips?product=` it is the SDK's "Seen live" player,
 * showing the newest clip of the retailer's product (nothing when there is none).
 */
export function ClipPage() {
  // Its texts load on demand: the page waits for them here.
  return (
    <Suspense fallback={<main className="clip-page" aria-busy="true" />}>
      <ClipView />
    </Suspense>
  );
}

function ClipView() {
  const { t } = useTranslation('clips', { useSuspense: true });
  const { pageUid = '', clipUid } = useParams();
  const [params] = useSearchParams();
  const productRef = params.get(EMBED_QUERY.seenLive);
  const format = useLocale();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [adding, setAdding] = useState<Adding>('idle');
  const [checkoutUid, setCheckoutUid] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    setLoaded({ status: 'loading' });
    const load = clipUid
      ? firstCall('getClip', { pageUid, clipUid })
      : productRef
        ? call('productClip', { pageUid, product: productRef }).then((answer) => answer.clip)
        : Promise.resolve(null);
    load.then(
      (clip) => {
        if (!current) return;
        setLoaded(clip ? { status: 'ready', clip } : { status: 'none' });
        // Embedded by the SDK: ready when there is a clip (the host may show its box), closed
        // when there is none, so a product page never keeps an empty box.
        if (clip)
          tellHost('player_ready', { pageUid, campaignUid: clip.campaignUid, eventUid: clip.eventId });
        else tellHost('close', {});
      },
      (error: unknown) => {
        logFailure('loading the clip failed', error);
        if (current)
          setLoaded(
            error instanceof ApiError && error.status === 404 ? { status: 'none' } : { status: 'failed' },
          );
      },
    );
    return () => {
      current = false;
    };
  }, [pageUid, clipUid, productRef]);

  if (loaded.status === 'loading') return <main className="clip-page" aria-busy="true" />;
  if (loaded.status !== 'ready')
    return (
      <main className="clip-page">
        <p className="clip-empty" role="status">
          {t(loaded.status === 'none' ? 'none' : 'failed')}
        </p>
      </main>
    );

  const { clip } = loaded;
  const product = clip.product;
  const price = product
    ? priceFor(product.product.prices, shownCurrency(format.locale), clip.storeCurrency)
    : null;
  const hasVariants = (product?.product.variants.length ?? 0) > 0;
  const showPath = webPath('show', { pageUid, campaignUid: clip.campaignUid, eventUid: clip.eventId });
  // The whole show, from the clip's moment on.
  const momentPath =
    clip.showOffsetSeconds === null
      ? showPath
      : `${showPath}?${EMBED_QUERY.startTime}=${clip.showOffsetSeconds}`;

  async function addToCart() {
    if (!product || !price) return;
    setAdding('adding');
    try {
      const answer = await addSingle({
        productUid: product.productUid,
        variantUid: null,
        quantity: 1,
        context: currentEmbedParams()?.context ?? 'checkout',
        pageUid,
        campaignUid: clip.campaignUid,
        currency: price.currency,
      });
      if (answer.status === 'added') {
        setCheckoutUid(answer.checkoutUid);
        setAdding('added');
      } else setAdding('refused');
    } catch (error) {
      logFailure('adding the clip product to the cart failed', error);
      setAdding('failed');
    }
  }

  return (
    <main className="clip-page">
      <figure className="clip-video">
        <ClipVideo clip={clip} />
        <figcaption>
          <span className="clip-seen-live">{t('seenLive')}</span> {clip.showName}
        </figcaption>
      </figure>
      {product && (
        <section className="clip-product" aria-label={product.product.name} data-clip-product>
          {product.product.images[0] && <img src={product.product.images[0]} alt="" width={96} height={96} />}
          <h1>{product.product.name}</h1>
          {price && <p className="clip-price">{format.money(price.amount, price.currency)}</p>}
          {hasVariants || !price ? (
            <a className="clip-button" href={showPath} target="_top">
              {t('shopInShow')}
            </a>
          ) : (
            <button
              type="button"
              className="clip-button"
              onClick={() => void addToCart()}
              disabled={adding === 'adding'}
              data-clip-add
            >
              {t('addToCart')}
            </button>
          )}
          <p role="status" className="clip-status">
            {adding === 'added'
              ? t('added')
              : adding === 'refused'
                ? t('refused')
                : adding === 'failed'
                  ? t('failed')
                  : ''}
          </p>
          {adding === 'added' && checkoutUid && (
            <a
              className="clip-link"
              href={`/${encodeURIComponent(clip.campaignUid)}/${encodeURIComponent(checkoutUid)}`}
              target="_top"
            >
              {t('toCheckout')}
            </a>
          )}
          <a className="clip-link" href={momentPath} target="_top" data-clip-show>
            {t('watchShow')}
          </a>
        </section>
      )}
    </main>
  );
}

export default ClipPage;
