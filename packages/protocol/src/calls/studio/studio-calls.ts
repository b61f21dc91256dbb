import { analyticsCalls } from './analytics-calls.ts';
import { catalogueCalls } from './catalogue-calls.ts';
import { studioClipCalls } from './clip-calls.ts';
import { controlRoomCalls } from './control-room-calls.ts';
import { flashDealStudioCalls } from './flash-deal-calls.ts';
import { liveCalls } from './live-calls.ts';
import { mailCalls } from './mail-calls.ts';
import { moderationCalls } from './moderation-calls.ts';
import { operatorCalls } from './operator-calls.ts';
import { orderCalls } from './order-calls.ts';
import { premiereCalls } from './premiere-calls.ts';
import { restreamCalls } from './restream-calls.ts';
import { settingsCalls } from './settings-calls.ts';
import { showCalls } from './show-calls.ts';
import { staffCalls } from './staff-calls.ts';

/**
 * Every studio call (store staff's back office): every path of a `{ staff }` call starts with
 * `/staff/stores/:pageUid/`, so the role check knows the store before anything else is read. Their
 * routes are generated into studio-routes.generated.ts, which loads with the studio.
 */
export const studioCalls = {
  ...staffCalls,
  ...settingsCalls,
  ...catalogueCalls,
  ...showCalls,
  ...liveCalls,
  ...premiereCalls,
  ...studioClipCalls,
  ...restreamCalls,
  ...moderationCalls,
  ...controlRoomCalls,
  ...flashDealStudioCalls,
  ...orderCalls,
  ...mailCalls,
  ...analyticsCalls,
  ...operatorCalls,
};
