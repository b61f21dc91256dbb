import { pickCampaignEvent } from '@vitrine/domain';
import type { EventProduct, LiveEvent, PlayerSettings, StoreInfo } from '@vitrine/protocol';
import { data, type LoaderFunctionArgs } from 'react-router';
import { loadStoreInfo, read } from '../../lib/api.ts';
import { followStoreLanguage } from '../../lib/i18n.ts';
import { rethrowAsNotFound } from '../../lib/loader-errors.ts';

export interface ShowData {
  pageUid: string;
  campaignUid: string;
  storeInfo: StoreInfo;
  playerSettings: PlayerSettings;
  /** Every event of the campaign; the player shows `event`. */
  events: LiveEvent[];
  event: LiveEvent;
  products: EventProduct[];
}

const notFound = () => data('Not found', { status: 404 });

/**
 * Loads a show: the store, its player settings, the campaign's events, the event to play (the
 * route's, or the campaign's most relevant one) and its products. Live queries keep them current
 * once the player is on screen.
 */
export async function showLoader({ params }: LoaderFunctionArgs): Promise<ShowData> {
  const { pageUid, campaignUid, eventUid } = params;
  if (!pageUid || !campaignUid) throw notFound();
  const [storeInfo, playerSettings, events] = await Promise.all([
    loadStoreInfo(pageUid),
    read('playerSettings', { pageUid }),
    read('liveEvents.byCampaign', { campaignIds: [campaignUid] }),
  ]).catch(rethrowAsNotFound);
  const event = eventUid ? events.find((candidate) => candidate.id === eventUid) : pickCampaignEvent(events);
  if (!event || event.event.storeInfo.id !== pageUid) throw notFound();
  // The store's language is the shopper's last source (domain startLanguage).
  void followStoreLanguage(event.event.storeInfo.language);
  const products = await read('liveEventProducts', { eventId: event.id }).catch(rethrowAsNotFound);
  return { pageUid, campaignUid, storeInfo, playerSettings, events, event, products };
}
