/**
 * The HTTP half of the player's and the admin key's calls: each call's method, path and who may
 * make it, without zod, so the web's initial bundle can address calls by name without loading
 * the schemas (or the studio's routes, which are in studio/ and load with the studio). The
 * schemas of each call are in the `*-calls.ts` files; `CallCatalogue` (index.ts) joins the two
 * by name and the compiler refuses a call that has one half only.
 */

/**
 * A store staff role. Each includes the ones after it: an owner may do all a host may, a host all
 * a moderator may (domain staff-roles.ts).
 * - owner: everything, including staff, payment settings and revenue.
 * - host: shows, products, going live and chat.
 * - moderator: chat and competitions only; never sees revenue.
 */
export type StaffRole = 'owner' | 'host' | 'moderator';

/**
 * Who may make a call:
 * - `anonymous`: anyone; credentials are not looked at.
 * - `optional-viewer`: anyone; a bearer id token, when sent, must be valid (else 401) and names the caller.
 * - `viewer`: a bearer id token of a user, anonymous or signed in (401 without).
 * - `admin`: the admin key as bearer (401 without), checked before the body is read.
 * - `{ staff }`: a signed-in member of the store named by the path's `:pageUid` whose role includes
 *   that one (or the admin key, for automation); every staff call's path has `:pageUid`.
 */
export type CallAuth = 'anonymous' | 'optional-viewer' | 'viewer' | 'admin' | { staff: StaffRole };

export type CallMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where a call is served: `:name` segments are path parameters. */
export interface CallRoute {
  method: CallMethod;
  path: string;
  auth: CallAuth;
}

/**
 * The header the player sends its viewer id in with comments, reactions and competition entries:
 * the random id of this browser (the web app's lib/tracking.ts), so a ban covers the device and
 * not only the account (issue 33 §4). A missing or malformed one is ignored. Here, zod-free: in
 * interaction.ts it brought zod and every interaction schema into a live show's first seconds.
 */
export const VIEWER_ID_HEADER = 'x-vitrine-viewer';

/** Declares one route, keeping its literal types (the catalogue's types are built from them). */
export const route = <const R extends CallRoute>(definition: R): R => definition;

export const PLAYER_CALL_ROUTES = {
  // Accounts (protocol auth.ts, accounts.ts)
  signInAnonymously: route({ method: 'POST', path: '/functions/auth/signInAnonymously', auth: 'anonymous' }),
  refreshIdToken: route({ method: 'POST', path: '/functions/auth/refreshIdToken', auth: 'anonymous' }),
  signUp: route({ method: 'POST', path: '/functions/auth/signUp', auth: 'optional-viewer' }),
  signInWithPassword: route({
    method: 'POST',
    path: '/functions/auth/signInWithPassword',
    auth: 'anonymous',
  }),
  signInWithCredential: route({
    method: 'POST',
    path: '/functions/auth/signInWithCredential',
    auth: 'anonymous',
  }),
  logout: route({ method: 'POST', path: '/functions/auth/logout', auth: 'anonymous' }),
  oidcProviders: route({ method: 'POST', path: '/functions/auth/oidc/providers', auth: 'anonymous' }),
  oidcStart: route({ method: 'POST', path: '/functions/auth/oidc/start', auth: 'optional-viewer' }),
  oidcComplete: route({ method: 'POST', path: '/functions/auth/oidc/complete', auth: 'optional-viewer' }),
  updateUser: route({ method: 'POST', path: '/functions/customerpage/updateUser', auth: 'viewer' }),

  // Live interaction (protocol interaction.ts)
  playerComment: route({ method: 'POST', path: '/shopapiv2/comment/playerComment', auth: 'viewer' }),
  editComment: route({ method: 'POST', path: '/shopapiv2/comment/editComment', auth: 'viewer' }),
  createReaction: route({ method: 'POST', path: '/shopapiv2/reaction/createReaction', auth: 'viewer' }),
  participate: route({ method: 'POST', path: '/shopapiv2/competition/participate', auth: 'viewer' }),
  dismissCompetition: route({ method: 'POST', path: '/shopapiv2/competition/dismiss', auth: 'viewer' }),
  captureContact: route({ method: 'POST', path: '/shopapiv2/contact/capture', auth: 'viewer' }),

  // Host console
  hostReply: route({ method: 'POST', path: '/admin/comments/reply', auth: 'admin' }),
  verifyComment: route({ method: 'POST', path: '/admin/comments/verify', auth: 'admin' }),
  listHostComments: route({
    method: 'GET',
    path: '/admin/pages/:pageUid/campaigns/:campaignUid/comments',
    auth: 'admin',
  }),
  putBulkComments: route({
    method: 'PUT',
    path: '/admin/pages/:pageUid/campaigns/:campaignUid/bulk-comments',
    auth: 'admin',
  }),
  listCompetitions: route({
    method: 'GET',
    path: '/admin/pages/:pageUid/campaigns/:campaignUid/competitions',
    auth: 'admin',
  }),
  createCompetition: route({
    method: 'POST',
    path: '/admin/pages/:pageUid/campaigns/:campaignUid/competitions',
    auth: 'admin',
  }),
  updateCompetition: route({ method: 'PATCH', path: '/admin/competitions/:competitionUid', auth: 'admin' }),
  drawWinners: route({ method: 'POST', path: '/admin/competitions/:competitionUid/draw', auth: 'admin' }),
  competitionNotice: route({
    method: 'POST',
    path: '/admin/competitions/:competitionUid/notice',
    auth: 'admin',
  }),

  // Stores, catalog and shows
  storeInfo: route({ method: 'POST', path: '/functions/customerpage/storeInfo', auth: 'anonymous' }),
  putPage: route({ method: 'PUT', path: '/admin/pages/:pageUid', auth: 'admin' }),
  putProduct: route({ method: 'PUT', path: '/admin/pages/:pageUid/products/:productUid', auth: 'admin' }),
  putCampaign: route({ method: 'PUT', path: '/admin/pages/:pageUid/campaigns/:campaignUid', auth: 'admin' }),
  putEvent: route({ method: 'PUT', path: '/admin/events/:eventId', auth: 'admin' }),
  putEventProduct: route({ method: 'PUT', path: '/admin/events/:eventId/products/:uid', auth: 'admin' }),
  appendCue: route({ method: 'POST', path: '/admin/events/:eventId/products/:uid/cues', auth: 'admin' }),

  // Cart, checkout, orders and payment (protocol cart.ts)
  getCartUid: route({ method: 'POST', path: '/shopapiv2/cart/getCartUid', auth: 'viewer' }),
  addSingle: route({ method: 'POST', path: '/shopapiv2/cart/addSingle', auth: 'viewer' }),
  changeCheckoutProductQuantity: route({
    method: 'POST',
    path: '/functions/customerpage/changeCheckoutProductQuantity',
    auth: 'viewer',
  }),
  cancelReservation: route({
    method: 'POST',
    path: '/functions/customerpage/cancelReservation',
    auth: 'viewer',
  }),
  loadUserReservation: route({
    method: 'POST',
    path: '/functions/customerpage/loadUserReservation',
    auth: 'viewer',
  }),
  saveUserReservation: route({
    method: 'POST',
    path: '/functions/customerpage/saveUserReservation',
    auth: 'viewer',
  }),
  ping: route({ method: 'POST', path: '/functions/ping', auth: 'viewer' }),
  loadCheckout: route({ method: 'POST', path: '/functions/customerpage/loadCheckout', auth: 'viewer' }),
  checkoutOptions: route({ method: 'POST', path: '/functions/customerpage/checkoutOptions', auth: 'viewer' }),
  findParcelShops: route({ method: 'POST', path: '/functions/customerpage/findParcelShops', auth: 'viewer' }),
  updateCheckoutDetails: route({
    method: 'POST',
    path: '/functions/customerpage/updateCheckoutDetails',
    auth: 'viewer',
  }),
  placeOrder: route({ method: 'POST', path: '/functions/customerpage/placeOrder', auth: 'viewer' }),
  userPaymentStarted: route({
    method: 'POST',
    path: '/functions/customerpage/userPaymentStarted',
    auth: 'viewer',
  }),
  sendToPacking: route({
    method: 'POST',
    path: '/admin/checkouts/:checkoutUid/sendToPacking',
    auth: 'admin',
  }),
  paymentWebhook: route({ method: 'POST', path: '/payments/:providerId/webhook', auth: 'anonymous' }),

  // Search across shows (protocol show-search.ts)
  searchShows: route({ method: 'POST', path: '/functions/search/shows', auth: 'anonymous' }),
  // Clips of shows (protocol clips.ts): a clip's page, and the SDK's "Seen live" of a product
  getClip: route({ method: 'POST', path: '/functions/clips/get', auth: 'anonymous' }),
  productClip: route({ method: 'POST', path: '/functions/clips/forProduct', auth: 'anonymous' }),

  // Flash deals (protocol flash-deals.ts)
  flashDealAdd: route({ method: 'POST', path: '/shopapiv2/flash-deals/add', auth: 'viewer' }),
  flashDealViewed: route({ method: 'POST', path: '/shopapiv2/flash-deals/viewed', auth: 'viewer' }),

  // Tracking (protocol tracking.ts)
  track: route({ method: 'POST', path: '/shopapiv2/tracking', auth: 'optional-viewer' }),
} as const;

type PlayerCallName = keyof typeof PLAYER_CALL_ROUTES;

/** Calls a viewer's browser makes: no admin key, no path parameters. */
export type ClientCallName = {
  [N in PlayerCallName]: (typeof PLAYER_CALL_ROUTES)[N]['auth'] extends 'admin'
    ? never
    : (typeof PLAYER_CALL_ROUTES)[N]['path'] extends `${string}:${string}`
      ? never
      : N;
}[PlayerCallName];
