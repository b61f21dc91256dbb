import { ShowSearchRequest, ShowSearchResults } from '../show-search.ts';
import { call } from './define-call.ts';

/** The front page's (and the SDK's) search for products across public shows (issue 32 item 5). */
export const searchCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  searchShows: call({
    method: 'POST',
    path: '/functions/search/shows',
    auth: 'anonymous',
    summary:
      'Products of public shows matching words (prefixes) of their name, description or SKU, each with its live, upcoming and recorded shows and, for a recording, the second it was presented. 429 rate_limited beyond 600 searches per address per minute.',
    request: ShowSearchRequest,
    response: ShowSearchResults,
  }),
};
