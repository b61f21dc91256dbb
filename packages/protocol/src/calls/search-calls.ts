import { ShowSearchRequest, ShowSearchResults } from '../show-search.ts';
import type { CallSchemas } from './define-call.ts';

/** The front page's (and the SDK's) search for products across public shows (issue 32 item 5). */
export const searchCalls = {
  searchShows: {
    summary:
      'Products of public shows matching words (prefixes) of their name, description or SKU, each with its live, upcoming and recorded shows and, for a recording, the second it was presented. 429 rate_limited beyond 600 searches per address per minute.',
    request: ShowSearchRequest,
    response: ShowSearchResults,
  },
} satisfies Record<string, CallSchemas>;
