/**
 * The player's side of host messaging (spec §4 "Host messaging", §6 capabilities): which host
 * action each message to the host page needs, the outbox that holds messages until the host's
 * capabilities are known, and the per-product state of host product-data requests.
 */

import type { HostAction, PlayerToHostType } from './vocabulary.ts';

/** The emittable event that lets the player mirror its tracking events to the host page. */
export const TRACK_EVENT_EMITTABLE = 'track_event';

/**
 * Most messages held while the host has not answered with its capabilities; the oldest go first
 * when more arrive, so a silent host cannot make the player hold memory without bound.
 */
export const HOST_OUTBOX_MAX_QUEUED = 100;

/**
 * How long a product-data request may stay unanswered before the product shows its default
 * prices; a host that never answers must not leave prices loading for ever.
 */
export const HOST_PRODUCT_DATA_TIMEOUT_MS = 10_000;

const REQUIRED_ACTION: Partial<Record<PlayerToHostType, HostAction>> = {
  host_open_cart: 'OPEN_CART',
  host_request_cart_state: 'GET_CART_CONTENTS',
  host_cart_state_changed: 'UPDATE_CART_CONTENTS',
  get_user_account_data: 'GET_USER_DATA',
  get_user_product_data: 'GET_PRODUCT_DATA',
  get_user_product_data_list: 'GET_PRODUCT_DATA_LIST',
  toggle_is_favorite: 'TOGGLE_IS_FAVORITE',
};

/**
 * The host action a message needs, or null when it needs none: lifecycle messages always go, and
 * go_to_url needs none (the NAVIGATION feature only decides whether it opens a new tab).
 */
export function requiredHostAction(type: PlayerToHostType): HostAction | null {
  return REQUIRED_ACTION[type] ?? null;
}

/** The parts of the host's capability sets (spec §3) that decide which messages go out. */
export interface HostMessagingCapabilities {
  usableActions: readonly string[];
  emittableEvents: readonly string[];
}

/**
 * Whether the host accepts a message of this type: its action must be in usableActions;
 * track_event goes when emittableEvents lists it or is empty (a host that names no events
 * takes them all); everything else always goes.
 */
export function isHostMessageAllowed(
  type: PlayerToHostType,
  capabilities: HostMessagingCapabilities,
): boolean {
  const action = requiredHostAction(type);
  if (action !== null) return capabilities.usableActions.includes(action);
  if (type === 'track_event') {
    return (
      capabilities.emittableEvents.length === 0 ||
      capabilities.emittableEvents.includes(TRACK_EVENT_EMITTABLE)
    );
  }
  return true;
}

/** Whether the host can perform an action; false while its capabilities are unknown. */
export function hostSupports(capabilities: HostMessagingCapabilities | null, action: HostAction): boolean {
  return capabilities?.usableActions.includes(action) ?? false;
}

/** Messages to the host with what the outbox needs of them. */
export interface OutgoingHostMessage {
  type: PlayerToHostType;
}

/** Messages waiting for the host's capabilities, or the capabilities once they are known. */
export interface HostOutbox<M extends OutgoingHostMessage> {
  capabilities: HostMessagingCapabilities | null;
  queued: readonly M[];
}

/** What an outbox step decided: the outbox after it, what to post now, and what was dropped. */
export interface HostOutboxStep<M extends OutgoingHostMessage> {
  outbox: HostOutbox<M>;
  send: M[];
  dropped: M[];
}

export function createHostOutbox<M extends OutgoingHostMessage>(): HostOutbox<M> {
  return { capabilities: null, queued: [] };
}

/**
 * Offers a message (spec §4 "queued until the host's capabilities are known. They are then sent,
 * or dropped if the action is unsupported"). player_ready goes out at once: it is what makes the
 * host answer with its capabilities.
 */
export function offerHostMessage<M extends OutgoingHostMessage>(
  outbox: HostOutbox<M>,
  message: M,
): HostOutboxStep<M> {
  if (message.type === 'player_ready') return { outbox, send: [message], dropped: [] };
  if (outbox.capabilities === null) {
    const queued = [...outbox.queued, message];
    const overflow = Math.max(0, queued.length - HOST_OUTBOX_MAX_QUEUED);
    return {
      outbox: { ...outbox, queued: queued.slice(overflow) },
      send: [],
      dropped: queued.slice(0, overflow),
    };
  }
  return isHostMessageAllowed(message.type, outbox.capabilities)
    ? { outbox, send: [message], dropped: [] }
    : { outbox, send: [], dropped: [message] };
}

/**
 * Takes the host's capabilities: the queued messages are sent in order, or dropped when the host
 * does not support them. Capabilities sent again replace the earlier ones.
 */
export function receiveHostCapabilities<M extends OutgoingHostMessage>(
  outbox: HostOutbox<M>,
  capabilities: HostMessagingCapabilities,
): HostOutboxStep<M> {
  const send: M[] = [];
  const dropped: M[] = [];
  for (const message of outbox.queued) {
    (isHostMessageAllowed(message.type, capabilities) ? send : dropped).push(message);
  }
  return { outbox: { capabilities, queued: [] }, send, dropped };
}

/** Where a product's host data stands (spec §4 "Product data requests go queued, then pending, then loaded"). */
export type ProductDataState = 'queued' | 'pending' | 'loaded';

/** The product-data requests made for one host user; keys are the host's product ids. */
export interface ProductDataRequests {
  userAccountId: string | null;
  states: Readonly<Record<string, ProductDataState>>;
}

/** No requests yet; the user is anonymous until the host says otherwise (spec §3 "User record"). */
export function createProductDataRequests(userAccountId: string | null = null): ProductDataRequests {
  return { userAccountId, states: {} };
}

function withStates(
  requests: ProductDataRequests,
  productIds: readonly string[],
  state: ProductDataState,
  only?: (current: ProductDataState | undefined) => boolean,
): ProductDataRequests {
  let states: Record<string, ProductDataState> | null = null;
  for (const id of productIds) {
    const current = Object.hasOwn(requests.states, id) ? requests.states[id] : undefined;
    if (current === state || (only && !only(current))) continue;
    states ??= { ...requests.states };
    states[id] = state;
  }
  return states === null ? requests : { ...requests, states };
}

/** Queues requests for products not yet asked about; products already queued, pending or loaded stay. */
export function queueProductData(
  requests: ProductDataRequests,
  productIds: readonly string[],
): ProductDataRequests {
  return withStates(requests, productIds, 'queued', (current) => current === undefined);
}

/** The products whose requests are queued, in the order they were first asked about. */
export function queuedProductIds(requests: ProductDataRequests): string[] {
  return Object.entries(requests.states).flatMap(([id, state]) => (state === 'queued' ? [id] : []));
}

/** Marks queued requests as sent to the host: queued → pending. */
export function markProductDataSent(
  requests: ProductDataRequests,
  productIds: readonly string[],
): ProductDataRequests {
  return withStates(requests, productIds, 'pending', (current) => current === 'queued');
}

/**
 * Takes the host's data for a product: only for products the player asked about (spec §5
 * "Unexpected user or product data from the host is ignored"); `accepted` says whether to keep it.
 */
export function receiveProductData(
  requests: ProductDataRequests,
  productId: string,
): { requests: ProductDataRequests; accepted: boolean } {
  if (!Object.hasOwn(requests.states, productId)) return { requests, accepted: false };
  return { requests: withStates(requests, [productId], 'loaded'), accepted: true };
}

/**
 * Gives up waiting for these products (see HOST_PRODUCT_DATA_TIMEOUT_MS): pending ones count as
 * loaded without data, so they show their default prices.
 */
export function expireProductData(
  requests: ProductDataRequests,
  productIds: readonly string[],
): ProductDataRequests {
  return withStates(requests, productIds, 'loaded', (current) => current === 'pending');
}

/**
 * A user account id from the host (spec §4 "Changing the user account id clears cached product
 * data and re-requests it"): when it differs, every product asked about is queued again and
 * `changed` tells the caller to drop the data it holds. A null id is the anonymous user.
 */
export function changeProductDataUser(
  requests: ProductDataRequests,
  userAccountId: string | null,
): { requests: ProductDataRequests; changed: boolean } {
  if (requests.userAccountId === userAccountId) return { requests, changed: false };
  const states = Object.fromEntries(Object.keys(requests.states).map((id) => [id, 'queued' as const]));
  return { requests: { userAccountId, states }, changed: true };
}

/** Whether a product's data is on its way: queued or pending (input of `productDisplayMode`). */
export function isProductDataPending(requests: ProductDataRequests, productId: string): boolean {
  const state = Object.hasOwn(requests.states, productId) ? requests.states[productId] : undefined;
  return state === 'queued' || state === 'pending';
}

/** Whether any product's data has arrived (input of `productDisplayMode`). */
export function hasLoadedProductData(requests: ProductDataRequests): boolean {
  return Object.values(requests.states).includes('loaded');
}
