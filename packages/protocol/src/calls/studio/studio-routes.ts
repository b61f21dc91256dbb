import { ANALYTICS_ROUTES } from './analytics-routes.ts';
import { CATALOGUE_ROUTES } from './catalogue-routes.ts';
import { CLIP_ROUTES } from './clip-routes.ts';
import { CONTROL_ROOM_ROUTES } from './control-room-routes.ts';
import { FLASH_DEAL_ROUTES } from './flash-deal-routes.ts';
import { LIVE_ROUTES } from './live-routes.ts';
import { MAIL_ROUTES } from './mail-routes.ts';
import { MODERATION_ROUTES } from './moderation-routes.ts';
import { OPERATOR_ROUTES } from './operator-routes.ts';
import { ORDER_ROUTES } from './order-routes.ts';
import { PREMIERE_ROUTES } from './premiere-routes.ts';
import { RESTREAM_ROUTES } from './restream-routes.ts';
import { SETTINGS_ROUTES } from './settings-routes.ts';
import { SHOW_ROUTES } from './show-routes.ts';
import { STAFF_ROUTES } from './staff-routes.ts';

/**
 * The studio's calls (store staff's back office): every path of a `{ staff }` call starts with
 * `/staff/stores/:pageUid/`, so the role check knows the store before anything else is read.
 */
export const STUDIO_CALL_ROUTES = {
  ...STAFF_ROUTES,
  ...SETTINGS_ROUTES,
  ...CATALOGUE_ROUTES,
  ...SHOW_ROUTES,
  ...LIVE_ROUTES,
  ...PREMIERE_ROUTES,
  ...CLIP_ROUTES,
  ...RESTREAM_ROUTES,
  ...MODERATION_ROUTES,
  ...CONTROL_ROOM_ROUTES,
  ...FLASH_DEAL_ROUTES,
  ...ORDER_ROUTES,
  ...MAIL_ROUTES,
  ...ANALYTICS_ROUTES,
  ...OPERATOR_ROUTES,
};
