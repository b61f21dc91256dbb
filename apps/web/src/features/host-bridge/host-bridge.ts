import {
  createHostOutbox,
  HOST_PRODUCT_DATA_TIMEOUT_MS,
  type HostOutbox,
  hostSupports,
  offerHostMessage,
  queuedProductIds,
  receiveHostCapabilities,
} from '@vitrine/domain';
import type { HostToPlayerMessage, PlayerToHostMessage, ProductLookup } from '@vitrine/protocol';
import {
  type BridgeAction,
  bridgeReducer,
  type HostBridgeState,
  INITIAL_BRIDGE_STATE,
} from './bridge-state.ts';
import { type EmbedParams, isOriginAllowed } from './embed-params.ts';
import {
  acceptHostMessage,
  encodePlayerMessage,
  type IncomingMessage,
  type PlayerToHostPayload,
  type PlayerToHostType,
} from './host-messages.ts';

/**
 * The player's end of the host messaging of spec §7: it talks only to the host origin named in the
 * embed URL, and only when the page lists that origin as allowed; it takes messages only from the
 * parent window at that origin (see acceptHostMessage) and posts only to that origin. Messages to
 * the host wait in the outbox until the host's capabilities are known (spec §4 "Host messaging").
 */

/** Host messages that ask the player to do something rather than tell it facts. */
export type HostCommand = Extract<
  HostToPlayerMessage,
  {
    type:
      | 'close'
      | 'minimize'
      | 'share'
      | 'language_change'
      | 'playlist_update'
      | 'cache_preload_events'
      | 'cache_activate_event';
  }
>;
const COMMAND_TYPES = new Set<HostToPlayerMessage['type']>([
  'close',
  'minimize',
  'share',
  'language_change',
  'playlist_update',
  'cache_preload_events',
  'cache_activate_event',
]);

/** Most products one get_user_product_data_list may name (the protocol's limit). */
const PRODUCT_LIST_BATCH = 100;

/** What the bridge needs of its surroundings; the browser wiring is in browser-bridge.ts. */
export interface BridgeDeps {
  /** The parent window: the one messages must come from, and the one posted to. */
  parent: { postMessage(message: unknown, targetOrigin: string): void };
  listen(handler: (event: IncomingMessage) => void): () => void;
  /** The page's allowed embedding origins (the `embedding` read). */
  allowedOrigins(): Promise<readonly string[]>;
  changeLanguage(language: string): void;
  setTimer(callback: () => void, ms: number): unknown;
  log: {
    /** Written once when the bridge refuses the host origin, so integrators see why nothing happens. */
    warn(message: string): void;
    debug(message: string, ...details: unknown[]): void;
    failure(what: string, error: unknown): void;
  };
}

/** What player_ready tells the host: the show, and the page's minimized corner (its player settings). */
export type PlayerReadyInfo = PlayerToHostPayload<'player_ready'>;

export interface HostBridge {
  readonly params: EmbedParams;
  getState(): HostBridgeState;
  subscribe(listener: () => void): () => void;
  onCommand(listener: (command: HostCommand) => void): () => void;
  /** Sends player_ready, once per bridge: it asks the host for its capabilities. */
  ready(info: PlayerReadyInfo): void;
  /** Offers a message to the host; it waits for the capabilities and goes only if they allow it. */
  send<T extends PlayerToHostType>(type: T, payload: PlayerToHostPayload<T>): void;
  /** content_loaded or video_ready for an event, not repeated for the same event in a row. */
  announce(type: 'content_loaded' | 'video_ready', eventUid: string): void;
  /** Asks the host for its data of these products (spec §3 "Host product data"), once per product and user. */
  requestProductData(products: readonly ProductLookup[]): void;
  toggleFavorite(product: ProductLookup, isFavorite: boolean, eventUid: string): void;
  dismissCartError(): void;
  destroy(): void;
}

export function createHostBridge(params: EmbedParams, deps: BridgeDeps): HostBridge {
  let state: HostBridgeState = INITIAL_BRIDGE_STATE;
  let outbox: HostOutbox<PlayerToHostMessage> = createHostOutbox();
  let readyInfo: PlayerReadyInfo | null = null;
  let readySent = false;
  let flushScheduled = false;
  let destroyed = false;
  let stopListening: (() => void) | null = null;
  const listeners = new Set<() => void>();
  const commandListeners = new Set<(command: HostCommand) => void>();
  const lookups = new Map<string, ProductLookup>();
  const lastAnnounced = new Map<string, string>();

  const dispatch = (action: BridgeAction) => {
    const next = bridgeReducer(state, action);
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
  };

  const post = (message: PlayerToHostMessage) => {
    if (destroyed || state.status !== 'on') return;
    deps.log.debug(`to host: ${message.type}`, message.payload);
    deps.parent.postMessage(message, params.hostOrigin);
  };

  const offer = (message: PlayerToHostMessage) => {
    const step = offerHostMessage(outbox, message);
    outbox = step.outbox;
    for (const sent of step.send) post(sent);
    for (const dropped of step.dropped) deps.log.debug(`not sent to host (unsupported): ${dropped.type}`);
  };

  const encodeAndOffer = <T extends PlayerToHostType>(type: T, payload: PlayerToHostPayload<T>) => {
    const message = encodePlayerMessage(params.playerId, type, payload);
    if (message === null) deps.log.debug(`message to host failed its schema: ${type}`, payload);
    else offer(message);
  };

  const sendReadyWhenPossible = () => {
    if (readySent || readyInfo === null || state.status !== 'on') return;
    const message = encodePlayerMessage(params.playerId, 'player_ready', readyInfo);
    if (message === null) return;
    readySent = true;
    offer(message);
    // Once the host knows the player: what it has to tell about its user and cart (dropped if unsupported).
    encodeAndOffer('get_user_account_data', {});
    encodeAndOffer('host_request_cart_state', {});
    deps.setTimer(() => dispatch({ type: 'capabilitiesTimedOut' }), HOST_PRODUCT_DATA_TIMEOUT_MS);
  };

  const flushProductRequests = () => {
    flushScheduled = false;
    const capabilities = state.capabilities;
    if (destroyed || state.status !== 'on' || capabilities === null) return;
    const ids = queuedProductIds(state.requests);
    if (ids.length === 0) return;
    const asList = hostSupports(capabilities, 'GET_PRODUCT_DATA_LIST');
    if (!asList && !hostSupports(capabilities, 'GET_PRODUCT_DATA')) {
      dispatch({ type: 'productsUnsupported' });
      return;
    }
    const products = ids.flatMap((id) => lookups.get(id) ?? []);
    if (asList) {
      for (let start = 0; start < products.length; start += PRODUCT_LIST_BATCH) {
        encodeAndOffer('get_user_product_data_list', {
          products: products.slice(start, start + PRODUCT_LIST_BATCH),
        });
      }
    } else {
      for (const product of products) encodeAndOffer('get_user_product_data', product);
    }
    dispatch({ type: 'productsSent', productIds: ids });
    deps.setTimer(() => dispatch({ type: 'productsExpired', productIds: ids }), HOST_PRODUCT_DATA_TIMEOUT_MS);
  };

  const scheduleFlush = () => {
    if (flushScheduled) return;
    flushScheduled = true;
    queueMicrotask(flushProductRequests);
  };

  const onHostMessage = (message: HostToPlayerMessage) => {
    deps.log.debug(`from host: ${message.type}`, message.payload);
    dispatch({ type: 'host', message });
    if (message.type === 'capabilities') {
      const step = receiveHostCapabilities(outbox, message.payload);
      outbox = step.outbox;
      for (const sent of step.send) post(sent);
      for (const dropped of step.dropped) deps.log.debug(`not sent to host (unsupported): ${dropped.type}`);
    }
    if (message.type === 'language_change') deps.changeLanguage(message.payload.language);
    if (COMMAND_TYPES.has(message.type)) {
      for (const listener of commandListeners) listener(message as HostCommand);
    }
    // New capabilities or a new user account leave product requests queued.
    if (queuedProductIds(state.requests).length > 0) scheduleFlush();
  };

  const onWindowMessage = (event: IncomingMessage) => {
    const verdict = acceptHostMessage(event, {
      hostOrigin: params.hostOrigin,
      parent: deps.parent,
      playerId: params.playerId,
    });
    if (verdict.ok) onHostMessage(verdict.message);
    else if (verdict.reason !== 'origin') deps.log.debug(`host message ignored: ${verdict.reason}`);
  };

  void deps.allowedOrigins().then(
    (allowed) => {
      if (destroyed) return;
      if (!isOriginAllowed(params.hostOrigin, allowed)) {
        deps.log.warn(
          `[vitrine] the host page ${params.hostOrigin} is not an allowed origin of this page; the player does not talk to it`,
        );
        dispatch({ type: 'status', status: 'off' });
        return;
      }
      stopListening = deps.listen(onWindowMessage);
      dispatch({ type: 'status', status: 'on' });
      sendReadyWhenPossible();
    },
    (error: unknown) => {
      deps.log.failure('reading the allowed embedding origins failed', error);
      if (!destroyed) dispatch({ type: 'status', status: 'off' });
    },
  );

  return {
    params,
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onCommand(listener) {
      commandListeners.add(listener);
      return () => commandListeners.delete(listener);
    },
    ready(info) {
      readyInfo ??= info;
      sendReadyWhenPossible();
    },
    send(type, payload) {
      if (type === 'player_ready') return;
      encodeAndOffer(type, payload);
    },
    announce(type, eventUid) {
      if (lastAnnounced.get(type) === eventUid) return;
      lastAnnounced.set(type, eventUid);
      encodeAndOffer(type, { eventUid });
    },
    requestProductData(products) {
      for (const product of products)
        if (!lookups.has(product.product_id)) lookups.set(product.product_id, product);
      dispatch({ type: 'queueProducts', productIds: products.map((product) => product.product_id) });
      if (queuedProductIds(state.requests).length > 0) scheduleFlush();
    },
    toggleFavorite(product, isFavorite, eventUid) {
      dispatch({ type: 'favoriteToggled', productId: product.product_id, isFavorite });
      encodeAndOffer('toggle_is_favorite', { product, isFavorite, eventUid });
    },
    dismissCartError() {
      dispatch({ type: 'cartErrorDismissed' });
    },
    destroy() {
      destroyed = true;
      stopListening?.();
      listeners.clear();
      commandListeners.clear();
    },
  };
}
