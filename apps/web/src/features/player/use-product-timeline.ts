import { activeProductUid, orderProducts } from '@vitrine/domain';
import type { EventProduct, LiveEvent } from '@vitrine/protocol';
import { type RefObject, useCallback, useEffect, useMemo } from 'react';
import { cueClockSeconds, playingDateOf } from '../../lib/live-clock.ts';
import { useVideoDerived } from '../../lib/use-video-time.ts';
import type { HostBridgeView } from '../host-bridge/host-bridge-context.tsx';
import { hostProductId, productLookup, withHostData } from '../host-bridge/host-product.ts';

export interface ProductTimeline {
  /** The product the video shows now, by its event-product uid. */
  activeUid: string | null;
  /**
   * On a live stream clock, the program date time (ms) of the frame the active product last
   * changed on; null elsewhere. Tests check the change falls on the stamped frame.
   */
  activeSinceStreamMs: number | null;
  /** The products in the order the video reaches them, with the host page's data where it has some. */
  shown: readonly EventProduct[];
}

/** The active product and the frame it was derived on: a new frame alone is no change. */
interface ActiveOnFrame {
  uid: string | null;
  streamMs: number | null;
}

const NO_ACTIVE_PRODUCT: ActiveOnFrame = { uid: null, streamMs: null };
const sameActiveProduct = (previous: ActiveOnFrame, next: ActiveOnFrame) => previous.uid === next.uid;

/**
 * The show's products as the video plays (spec §2 "products in sync with the video"): which one
 * is on now, in which order they come, and the host page's name, price and images for its user
 * (spec §3), which are asked for once the products are known.
 */
export function useProductTimeline(
  videoRef: RefObject<HTMLVideoElement | null>,
  products: readonly EventProduct[],
  event: LiveEvent,
  host: Pick<HostBridgeView, 'usesProductData' | 'requestProductData' | 'productData'>,
): ProductTimeline {
  // A live show times its cues on the stream clock (the playing frame's wall time), a replay on the video's position.
  const live = event.event.currentStatus === 'live';
  const deriveActive = useCallback(
    (time: number): ActiveOnFrame => ({
      uid: activeProductUid(products, event, cueClockSeconds(videoRef.current, event, time, live)),
      streamMs: live ? playingDateOf(videoRef.current) : null,
    }),
    [products, event, videoRef, live],
  );
  const active = useVideoDerived(videoRef, deriveActive, NO_ACTIVE_PRODUCT, sameActiveProduct);
  const deriveOrder = useCallback(
    (time: number) =>
      orderProducts(products, event, cueClockSeconds(videoRef.current, event, time, live))
        .map((product) => product.uid)
        .join(' '),
    [products, event, videoRef, live],
  );
  const order = useVideoDerived(videoRef, deriveOrder, '');
  const ordered = useMemo(() => {
    const byUid = new Map(products.map((product) => [product.uid, product]));
    const inOrder = order.split(' ').flatMap((uid) => byUid.get(uid) ?? []);
    return inOrder.length === products.length ? inOrder : products;
  }, [order, products]);

  const { usesProductData, requestProductData, productData } = host;
  useEffect(() => {
    if (usesProductData && products.length > 0) requestProductData(products.map(productLookup));
  }, [usesProductData, requestProductData, products]);
  const storeCurrency = event.event.storeInfo.currency;
  const shown = useMemo(
    () =>
      ordered.map((product) =>
        withHostData(product, productData[hostProductId(product)]?.data, storeCurrency),
      ),
    [ordered, productData, storeCurrency],
  );
  const streamMs = active.streamMs === null ? null : Math.round(active.streamMs);
  return { activeUid: active.uid, activeSinceStreamMs: streamMs, shown };
}
