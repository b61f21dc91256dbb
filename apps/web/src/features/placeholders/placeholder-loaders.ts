import type { LiveEvent, StoreInfo } from '@vitrine/protocol';
import { data, type LoaderFunctionArgs } from 'react-router';
import { loadStoreInfo, read } from '../../lib/api.ts';
import { rethrowAsNotFound } from '../../lib/loader-errors.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';

/**
 * Loaders of the screens later issues build. They already load the data their screen needs
 * (and answer not-found for ids that do not exist), so the routes are real from the start.
 */

export interface PageData {
  storeInfo: StoreInfo;
}

export interface CampaignData {
  events: LiveEvent[];
}

const notFound = () => data('Not found', { status: 404 });

async function loadPage(pageUid: string | undefined): Promise<PageData> {
  const storeInfo = await loadStoreInfo(pageUid ?? runtimeConfig.defaultPageUid).catch(rethrowAsNotFound);
  return { storeInfo };
}

export const pageLoader = ({ params }: LoaderFunctionArgs) => loadPage(params.pageUid);

async function campaignEvents(campaignUid: string | undefined): Promise<LiveEvent[]> {
  if (!campaignUid) throw notFound();
  const events = await read('liveEvents.byCampaign', { campaignIds: [campaignUid] }).catch(rethrowAsNotFound);
  if (events.length === 0) throw notFound();
  return events;
}

export async function campaignLoader({ params }: LoaderFunctionArgs): Promise<CampaignData> {
  return { events: await campaignEvents(params.campaignUid) };
}

/** Checkout screens: the campaign's events now; the checkout itself arrives with the cart issue. */
export const checkoutLoader = campaignLoader;
