import type { PlayerSettings, ShopEvents, StoreInfo } from '@vitrine/protocol';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { ApiError, loadStoreInfo, read } from '../../lib/api.ts';
import { logFailure } from '../../lib/debug.ts';
import { followStoreLanguage } from '../../lib/i18n.ts';
import { rethrowAsNotFound } from '../../lib/loader-errors.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';

export interface ShopData {
  pageUid: string;
  /** Null when the store info could not be loaded for a reason other than a missing store. */
  storeInfo: StoreInfo | null;
  playerSettings: PlayerSettings | null;
  /** Null when the events could not be loaded; the page says so. */
  events: ShopEvents | null;
}

/** Loads the shop page of one store: store info, player settings and the events it lists. */
export async function loadShop(pageUid: string): Promise<ShopData> {
  const [storeInfo, playerSettings, events] = await Promise.allSettled([
    loadStoreInfo(pageUid),
    read('playerSettings', { pageUid }),
    read('liveEvents.shop', { pageUid }),
  ]);
  if (storeInfo.status === 'rejected') {
    const reason: unknown = storeInfo.reason;
    if (reason instanceof ApiError && (reason.status === 404 || reason.status === 400))
      rethrowAsNotFound(reason);
    // Spec §8: any other store-info load failure is only logged.
    logFailure('loading store info failed', reason);
  }
  if (events.status === 'rejected') logFailure('loading events failed', events.reason);
  // The store's language (its shows carry it) is the shopper's last source (domain startLanguage).
  const listed =
    events.status === 'fulfilled' ? [...events.value.live, ...events.value.planned, ...events.value.vod] : [];
  const storeLanguage = listed[0]?.event.storeInfo.language;
  if (storeLanguage) void followStoreLanguage(storeLanguage);
  if (playerSettings.status === 'rejected')
    logFailure('loading player settings failed', playerSettings.reason);
  return {
    pageUid,
    storeInfo: storeInfo.status === 'fulfilled' ? storeInfo.value : null,
    playerSettings: playerSettings.status === 'fulfilled' ? playerSettings.value : null,
    events: events.status === 'fulfilled' ? events.value : null,
  };
}

/** The site root: the default store, or the setup page while the server has no store at all. */
export const defaultShopLoader = () =>
  runtimeConfig.defaultPageUid ? loadShop(runtimeConfig.defaultPageUid) : redirect('/setup');
export const shopLoader = ({ params }: LoaderFunctionArgs) =>
  loadShop(params.pageUid ?? runtimeConfig.defaultPageUid);
