import { parseClipMode } from '@vitrine/domain';
import type { LiveEvent, PlayerSettings, StoreInfo } from '@vitrine/protocol';
import type { LoaderFunctionArgs } from 'react-router';
import { loadStoreInfo, read } from '../../lib/api.ts';
import { rethrowAsNotFound } from '../../lib/loader-errors.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';

export interface MultiEventData {
  pageUid: string;
  storeInfo: StoreInfo;
  playerSettings: PlayerSettings;
  /** The playable shows: live ones first, then recordings, newest first. */
  events: LiveEvent[];
  initialEventId: string | null;
  clipMode: ReturnType<typeof parseClipMode>;
}

/**
 * A multi-event widget plays the store's shows one after another. The page comes from the route,
 * or `?pageUid=` on /widget/multi-event; `?event=` picks the first show and `?clipMode=clip`
 * moves on to the next show by itself after a countdown.
 */
export async function multiEventLoader({ params, request }: LoaderFunctionArgs): Promise<MultiEventData> {
  const query = new URL(request.url).searchParams;
  const pageUid = params.pageUid ?? query.get('pageUid') ?? runtimeConfig.defaultPageUid;
  const [storeInfo, playerSettings, shop] = await Promise.all([
    loadStoreInfo(pageUid),
    read('playerSettings', { pageUid }),
    read('liveEvents.shop', { pageUid }),
  ]).catch(rethrowAsNotFound);
  return {
    pageUid,
    storeInfo,
    playerSettings,
    events: [...shop.live, ...shop.vod],
    initialEventId: query.get('event'),
    clipMode: parseClipMode(query.get('clipMode')),
  };
}
