import type { StoreInfo } from '@vitrine/protocol';
import type { LoaderFunctionArgs } from 'react-router';
import { loadStoreInfo } from '../../lib/api.ts';
import { rethrowAsNotFound } from '../../lib/loader-errors.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';

/**
 * Loaders of the screens later issues build. They already load the data their screen needs
 * (and answer not-found for ids that do not exist), so the routes are real from the start.
 */

export interface PageData {
  storeInfo: StoreInfo;
}

async function loadPage(pageUid: string | undefined): Promise<PageData> {
  const storeInfo = await loadStoreInfo(pageUid ?? runtimeConfig.defaultPageUid).catch(rethrowAsNotFound);
  return { storeInfo };
}

export const pageLoader = ({ params }: LoaderFunctionArgs) => loadPage(params.pageUid);
