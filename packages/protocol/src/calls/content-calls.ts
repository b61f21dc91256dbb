import { StoreInfo, StoreInfoRequest } from '../store.ts';
import { call } from './define-call.ts';

/** A store's public info (the admin key's upserts of stores, catalogs and shows are in admin-calls.ts). */
export const contentCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  storeInfo: call({
    method: 'POST',
    path: '/functions/customerpage/storeInfo',
    auth: 'anonymous',
    summary: "A store's info (spec §3); 404 for an unknown store.",
    request: StoreInfoRequest,
    response: StoreInfo,
  }),
};
