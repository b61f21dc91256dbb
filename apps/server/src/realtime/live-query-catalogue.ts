import type { Queryable } from '../db/database.ts';
import { checkoutLiveQueries } from '../features/checkout/live-queries.ts';
import { commentLiveQueries } from '../features/comments/live-queries.ts';
import type { EventService } from '../features/events/event-service.ts';
import { eventLiveQueries } from '../features/events/live-queries.ts';
import { notificationLiveQueries } from '../features/notifications/live-queries.ts';
import { reactionLiveQueries } from '../features/reactions/live-queries.ts';
import { storeLiveQueries } from '../features/stores/live-queries.ts';
import type { StoreService } from '../features/stores/store-service.ts';
import { userLiveQueries } from '../features/users/live-queries.ts';
import type { LiveQueryCatalogue } from './live-query.ts';

/** Every live query of spec §7, each defined by the feature that owns its data. */
export function createLiveQueryCatalogue(deps: {
  db: Queryable;
  stores: StoreService;
  events: EventService;
  now: () => number;
}): LiveQueryCatalogue {
  return {
    ...storeLiveQueries(deps.stores),
    ...eventLiveQueries(deps.db, deps.events, deps.now),
    ...commentLiveQueries(deps.db, deps.now),
    ...reactionLiveQueries(),
    ...notificationLiveQueries(deps.db),
    ...checkoutLiveQueries(deps.db, deps.now),
    ...userLiveQueries(deps.db),
  };
}
