import { hostSupports, isForcedBasketMode, isProductDataPending } from '@vitrine/domain';
import type { HostCapabilities, ProductLookup } from '@vitrine/protocol';
import type {
  EmbedMode,
  ForcedBasketMode,
  HostAction,
  Navigation,
  WidgetContext,
} from '@vitrine/protocol/vocabulary';
import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { logFailure } from '../../lib/debug.ts';
import {
  type BridgeStatus,
  type HostBridgeState,
  type HostCart,
  type HostProductEntry,
  type HostUserAccount,
  INITIAL_BRIDGE_STATE,
  OFF_BRIDGE_STATE,
  productEntry,
} from './bridge-state.ts';
import { currentEmbedParams, type EmbedParams } from './embed-params.ts';
import type { HostBridge, HostCommand, PlayerReadyInfo } from './host-bridge.ts';
import type { PlayerToHostPayload, PlayerToHostType } from './host-messages.ts';

/**
 * The host bridge for React. Only this module and the zod-free state module are in the initial
 * bundle; the bridge itself (and zod) loads with `import()` when the player runs embedded.
 */

interface BridgeSlot {
  params: EmbedParams;
  /** Resolves to the bridge once loaded; calls made before then wait for it, in order. */
  loading: Promise<HostBridge | null>;
  bridge: HostBridge | null;
}

const HostBridgeContext = createContext<BridgeSlot | null>(null);

/** Makes the host bridge available to the player below it; a no-op unless the player runs embedded. */
export function HostBridgeProvider({ pageUid, children }: { pageUid: string; children: ReactNode }) {
  const params = currentEmbedParams();
  const loading = useMemo(
    () =>
      params
        ? import('./browser-bridge.ts').then(
            (module) => module.hostBridgeFor(params, pageUid),
            (error: unknown) => {
              logFailure('loading the host bridge failed', error);
              return null;
            },
          )
        : null,
    [params, pageUid],
  );
  const [bridge, setBridge] = useState<HostBridge | null>(null);
  useEffect(() => {
    if (!loading) return;
    let cancelled = false;
    void loading.then((loaded) => {
      if (!cancelled) setBridge(loaded);
    });
    return () => {
      cancelled = true;
    };
  }, [loading]);
  const slot = useMemo(
    () => (params && loading ? { params, loading, bridge } : null),
    [params, loading, bridge],
  );
  return <HostBridgeContext.Provider value={slot}>{children}</HostBridgeContext.Provider>;
}

/** What the player knows of the host page and can ask of it. */
export interface HostBridgeView {
  /** Running in an iframe of an SDK host page (`?embed=1`, framed, valid host origin). */
  embedded: boolean;
  /** Talking to the host: embedded and its origin is allowed for the page. */
  connected: boolean;
  status: BridgeStatus;
  context: WidgetContext | null;
  mode: EmbedMode | null;
  capabilities: HostCapabilities | null;
  supports(action: HostAction): boolean;
  forcedBasketMode: ForcedBasketMode | null;
  /** The host's NAVIGATION feature, null when it sets none. */
  navigation: Navigation | null;
  /** The host's MINIMIZED_PLAYER feature allows minimizing (default on, spec §9). */
  minimizable: boolean;
  hostCart: HostCart | null;
  cartError: HostBridgeState['cartError'];
  userAccount: HostUserAccount;
  activeStoreIds: readonly string[];
  parentSize: HostBridgeState['parentSize'];
  /** Prices come from the host (it offers GET_PRODUCT_DATA or _LIST, or has not said yet). */
  usesProductData: boolean;
  /** Host product data by product id, with where each request stands. */
  productData: Readonly<Record<string, HostProductEntry>>;
  /** Whether a product's data is still on its way (input of productDisplayMode). */
  isProductDataPending(productId: string): boolean;
  /** Whether any host product data has arrived (input of productDisplayMode). */
  productDataLoaded: boolean;
  isFavorite(productId: string): boolean;
  send<T extends PlayerToHostType>(type: T, payload: PlayerToHostPayload<T>): void;
  ready(info: PlayerReadyInfo): void;
  announce(type: 'content_loaded' | 'video_ready', eventUid: string): void;
  requestProductData(products: readonly ProductLookup[]): void;
  toggleFavorite(product: ProductLookup, isFavorite: boolean, eventUid: string): void;
  dismissCartError(): void;
}

const noSubscription = () => () => undefined;
const offSnapshot = () => OFF_BRIDGE_STATE;
const initialSnapshot = () => INITIAL_BRIDGE_STATE;
const ignore = () => undefined;

type HostBridgeActions = Pick<
  HostBridgeView,
  'send' | 'ready' | 'announce' | 'requestProductData' | 'toggleFavorite' | 'dismissCartError'
>;

const NO_ACTIONS: HostBridgeActions = {
  send: ignore,
  ready: ignore,
  announce: ignore,
  requestProductData: ignore,
  toggleFavorite: ignore,
  dismissCartError: ignore,
};

/** The calls of the view, stable while the bridge is: effects can depend on them. */
function makeActions(slot: BridgeSlot | null): HostBridgeActions {
  if (slot === null) return NO_ACTIONS;
  const whenLoaded = (use: (bridge: HostBridge) => void) => {
    if (slot.bridge) use(slot.bridge);
    else void slot.loading.then((bridge) => bridge && use(bridge));
  };
  return {
    send: (type, payload) => whenLoaded((bridge) => bridge.send(type, payload)),
    ready: (info) => whenLoaded((bridge) => bridge.ready(info)),
    announce: (type, eventUid) => whenLoaded((bridge) => bridge.announce(type, eventUid)),
    requestProductData: (products) => whenLoaded((bridge) => bridge.requestProductData(products)),
    toggleFavorite: (product, isFavorite, eventUid) =>
      whenLoaded((bridge) => bridge.toggleFavorite(product, isFavorite, eventUid)),
    dismissCartError: () => whenLoaded((bridge) => bridge.dismissCartError()),
  };
}

function makeView(
  slot: BridgeSlot | null,
  state: HostBridgeState,
  actions: HostBridgeActions,
): HostBridgeView {
  const capabilities = state.capabilities;
  const features = capabilities?.supportedFeatures;
  const forced = features?.FORCE_BASKET_MODE;
  const connected = slot !== null && state.status === 'on';
  const awaitingCapabilities = slot !== null && state.status !== 'off' && capabilities === null;
  const usesProductData =
    slot !== null &&
    state.status !== 'off' &&
    (capabilities === null
      ? !state.capabilitiesTimedOut
      : hostSupports(capabilities, 'GET_PRODUCT_DATA') ||
        hostSupports(capabilities, 'GET_PRODUCT_DATA_LIST'));
  const productData: Record<string, HostProductEntry> = {};
  for (const id of Object.keys(state.requests.states)) {
    const entry = productEntry(state, id);
    if (entry) productData[id] = entry;
  }
  return {
    ...actions,
    embedded: slot !== null,
    connected,
    status: slot === null ? 'off' : state.status,
    context: slot?.params.context ?? null,
    mode: slot?.params.mode ?? null,
    capabilities,
    supports: (action) => connected && hostSupports(capabilities, action),
    forcedBasketMode: isForcedBasketMode(forced) ? forced : null,
    navigation: features?.NAVIGATION ?? null,
    minimizable: features?.MINIMIZED_PLAYER !== false,
    hostCart: state.hostCart,
    cartError: state.cartError,
    userAccount: state.user,
    activeStoreIds: state.activeStoreIds,
    parentSize: state.parentSize,
    usesProductData,
    productData,
    isProductDataPending: (productId) =>
      awaitingCapabilities ? !state.capabilitiesTimedOut : isProductDataPending(state.requests, productId),
    productDataLoaded: Object.keys(state.productData).length > 0,
    isFavorite: (productId) => state.favorites[productId] === true,
  };
}

/**
 * The host page as the player sees it: whether it runs embedded, the host's capabilities, cart,
 * user and product data, and the way to send it messages. Outside a HostBridgeProvider, or when
 * not embedded, it reports no host and every call does nothing.
 */
export function useHostBridge(): HostBridgeView {
  const slot = useContext(HostBridgeContext);
  const bridge = slot?.bridge ?? null;
  const state = useSyncExternalStore(
    bridge ? bridge.subscribe : noSubscription,
    bridge ? bridge.getState : slot ? initialSnapshot : offSnapshot,
  );
  const actions = useMemo(() => makeActions(slot), [slot]);
  return useMemo(() => makeView(slot, state, actions), [slot, state, actions]);
}

/** Runs `handler` for each command the host sends (close, minimize, share, playlist_update, …). */
export function useHostCommand(handler: (command: HostCommand) => void): void {
  const slot = useContext(HostBridgeContext);
  const latest = useRef(handler);
  latest.current = handler;
  const bridge = slot?.bridge ?? null;
  useEffect(() => bridge?.onCommand((command) => latest.current(command)), [bridge]);
}
