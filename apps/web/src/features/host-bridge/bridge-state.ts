import {
  changeProductDataUser,
  createProductDataRequests,
  expireProductData,
  hostSupports,
  markProductDataSent,
  type ProductDataRequests,
  type ProductDataState,
  queueProductData,
  receiveProductData,
} from '@vitrine/domain';
import type { HostCapabilities, HostProductData, HostToPlayerMessage } from '@vitrine/protocol';

/**
 * What the player knows from the host page, as one state with the actions that change it. Pure
 * and zod-free: the React side imports its types and initial value without loading the bridge.
 */

/** checking: the page's allowed origins are being read; on: talking to the host; off: not embedded or refused. */
export type BridgeStatus = 'checking' | 'on' | 'off';

export interface HostCart {
  lines: { product_id: string; variant_id: string | null; quantity: number }[];
  itemCount: number;
}

export interface HostUserAccount {
  userAccountId: string | null;
  name: string | null;
}

export interface HostBridgeState {
  status: BridgeStatus;
  capabilities: HostCapabilities | null;
  /** The host did not answer player_ready with its capabilities in time. */
  capabilitiesTimedOut: boolean;
  hostCart: HostCart | null;
  /** The last host_cart_update_error not yet dismissed; `seq` tells repeated errors apart. */
  cartError: { productId: string | null; seq: number } | null;
  requests: ProductDataRequests;
  /** Host product data by the host's product id, only for products the player asked about. */
  productData: Readonly<Record<string, HostProductData>>;
  /** Favourite flags by product id: the host's, then the shopper's toggles. */
  favorites: Readonly<Record<string, boolean>>;
  user: HostUserAccount;
  activeStoreIds: readonly string[];
  parentSize: { width: number; height: number } | null;
}

export const INITIAL_BRIDGE_STATE: HostBridgeState = {
  status: 'checking',
  capabilities: null,
  capabilitiesTimedOut: false,
  hostCart: null,
  cartError: null,
  requests: createProductDataRequests(),
  productData: {},
  favorites: {},
  user: { userAccountId: null, name: null },
  activeStoreIds: [],
  parentSize: null,
};

/** The state of a player that talks to no host page. */
export const OFF_BRIDGE_STATE: HostBridgeState = { ...INITIAL_BRIDGE_STATE, status: 'off' };

export type BridgeAction =
  | { type: 'host'; message: HostToPlayerMessage }
  | { type: 'status'; status: BridgeStatus }
  | { type: 'capabilitiesTimedOut' }
  | { type: 'queueProducts'; productIds: readonly string[] }
  | { type: 'productsSent'; productIds: readonly string[] }
  | { type: 'productsExpired'; productIds: readonly string[] }
  /** The host takes no product-data requests: forget the queued ones. */
  | { type: 'productsUnsupported' }
  | { type: 'favoriteToggled'; productId: string; isFavorite: boolean }
  | { type: 'cartErrorDismissed' };

function takeProductData(state: HostBridgeState, products: readonly HostProductData[]): HostBridgeState {
  let { requests } = state;
  let productData: Record<string, HostProductData> | null = null;
  let favorites: Record<string, boolean> | null = null;
  for (const data of products) {
    const received = receiveProductData(requests, data.product_id);
    // Spec §5: data for products the player did not ask about is ignored.
    if (!received.accepted) continue;
    requests = received.requests;
    productData ??= { ...state.productData };
    productData[data.product_id] = data;
    if (data.isFavorite !== undefined) {
      favorites ??= { ...state.favorites };
      favorites[data.product_id] = data.isFavorite;
    }
  }
  if (productData === null) return state;
  return { ...state, requests, productData, favorites: favorites ?? state.favorites };
}

function takeHostMessage(state: HostBridgeState, message: HostToPlayerMessage): HostBridgeState {
  switch (message.type) {
    case 'capabilities': {
      const next = { ...state, capabilities: message.payload, capabilitiesTimedOut: false };
      if (state.user.userAccountId === null || hostSupports(message.payload, 'GET_USER_DATA')) return next;
      // Spec §4 "Clearing data resets the user to anonymous": a host that re-declares its actions
      // without GET_USER_DATA has cleared its user; the player forgets it and what was priced for it.
      const change = changeProductDataUser(state.requests, null);
      return {
        ...next,
        user: { userAccountId: null, name: null },
        requests: change.requests,
        productData: {},
        favorites: {},
      };
    }
    case 'host_cart_state_changed':
      return { ...state, hostCart: message.payload };
    case 'host_cart_update_error':
      return {
        ...state,
        cartError: { productId: message.payload.product_id, seq: (state.cartError?.seq ?? 0) + 1 },
      };
    case 'user_account_data': {
      // Spec §5: user data from a host that did not offer GET_USER_DATA is unexpected.
      if (!hostSupports(state.capabilities, 'GET_USER_DATA')) return state;
      const user = { userAccountId: message.payload.userAccountId, name: message.payload.name ?? null };
      const change = changeProductDataUser(state.requests, user.userAccountId);
      if (!change.changed) return { ...state, user };
      // Spec §4: a new user account clears the cached product data; it is asked for again.
      return { ...state, user, requests: change.requests, productData: {}, favorites: {} };
    }
    case 'user_product_data':
      return takeProductData(state, [message.payload]);
    case 'user_product_data_list':
      return takeProductData(state, message.payload.products);
    case 'parent_resize':
      return { ...state, parentSize: message.payload };
    case 'set_active_store_ids':
      return { ...state, activeStoreIds: message.payload.storeIds };
    default:
      // close, minimize, share, language_change, playlist_update, cache_*: commands to the player.
      return state;
  }
}

export function bridgeReducer(state: HostBridgeState, action: BridgeAction): HostBridgeState {
  switch (action.type) {
    case 'host':
      return takeHostMessage(state, action.message);
    case 'status':
      return state.status === action.status ? state : { ...state, status: action.status };
    case 'capabilitiesTimedOut':
      return state.capabilities === null ? { ...state, capabilitiesTimedOut: true } : state;
    case 'queueProducts': {
      const requests = queueProductData(state.requests, action.productIds);
      return requests === state.requests ? state : { ...state, requests };
    }
    case 'productsSent': {
      const requests = markProductDataSent(state.requests, action.productIds);
      return requests === state.requests ? state : { ...state, requests };
    }
    case 'productsExpired': {
      const requests = expireProductData(state.requests, action.productIds);
      return requests === state.requests ? state : { ...state, requests };
    }
    case 'productsUnsupported':
      return Object.keys(state.requests.states).length === 0
        ? state
        : { ...state, requests: createProductDataRequests(state.requests.userAccountId) };
    case 'favoriteToggled':
      return { ...state, favorites: { ...state.favorites, [action.productId]: action.isFavorite } };
    case 'cartErrorDismissed':
      return state.cartError === null ? state : { ...state, cartError: null };
  }
}

/** A product's host data with where its request stands (spec §4 "queued, then pending, then loaded"). */
export interface HostProductEntry {
  state: ProductDataState;
  data: HostProductData | null;
}

/** The host data of one product, or null when the player never asked about it. */
export function productEntry(state: HostBridgeState, productId: string): HostProductEntry | null {
  const requestState = Object.hasOwn(state.requests.states, productId)
    ? state.requests.states[productId]
    : undefined;
  if (requestState === undefined) return null;
  const data = Object.hasOwn(state.productData, productId) ? state.productData[productId] : undefined;
  return { state: requestState, data: data ?? null };
}
