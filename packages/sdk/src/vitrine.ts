/**
 * The SDK in the browser: creates player iframes on the widget route, lays them out (modal,
 * fillParent, inline, minimized), and carries messages between each player and the host page's
 * handlers. One instance per page (see loader.ts); it listens once for all of its players.
 */
import type {
  EmbedMode,
  HostAction,
  HostCapabilities,
  HostFeatures,
  HostToPlayerPayloads,
  HostToPlayerType,
  PlayerToHostPayloads,
  PlayerToHostType,
  WidgetContext,
} from './protocol.ts';
import {
  cleanFeatures,
  fail,
  hostMessage,
  isObject,
  type MinimizedBox,
  navigationUrl,
  type PlaybackPosition,
  type PlayerConfig,
  parsePlayerMessage,
  playbackPosition,
  playerConfig,
  widgetUrl,
} from './validate.ts';

/** Posts a message back to the player that sent the one being handled. */
export type Reply = <T extends HostToPlayerType>(type: T, payload: HostToPlayerPayloads[T]) => void;

/** Handles one type of message from the player; errors (also rejected promises) are logged, not thrown. */
export type Handler<T extends PlayerToHostType = PlayerToHostType> = (
  payload: PlayerToHostPayloads[T],
  reply: Reply,
  player: Player,
) => unknown;

export type Handlers = { [T in PlayerToHostType]?: Handler<T> };

export interface InitOptions {
  /** The Vitrine server; the loader uses the origin it was loaded from. Required with the ESM build. */
  origin?: string;
  pageUid: string;
  campaignUid?: string | null;
  /** Needs campaignUid. */
  eventUid?: string | null;
  /** Element or selector the player goes into (fillParent and inline); modal players go on document.body. */
  container?: Element | string | null;
  /** Default 'modal'. */
  mode?: EmbedMode;
  /** Default 'on_site'. */
  context?: WidgetContext;
  usableActions?: HostAction[];
  supportedFeatures?: HostFeatures;
  /** Their names are sent to the player as `emittableEvents`. */
  handlers?: Handlers;
  /** Inline mode's box, `width:height`; default '16:9'. */
  aspectRatio?: string;
  /**
   * Corner, margins (default 20 px; `margin` sets both) and size (default 180 × 320) of the
   * minimized player; without it, the corner and margins of the page's player settings.
   */
  minimized?: Partial<MinimizedBox> & { margin?: number };
  /** Starting language of the player (`?lang=`). */
  language?: string;
  /**
   * Opens the store page with its search for this text (`?q=`): products of the live, upcoming
   * and recorded shows, each leading to its moment. Not with `campaignUid`. The search's code
   * loads only then: a player of one show never carries it.
   */
  search?: string;
  /** Seconds into the recorded show `eventUid` to start at (`?t=`), e.g. a search result's `offset`. */
  startTime?: number;
  /**
   * "Seen live" on a product page: the player shows the newest clip cut from a show for this
   * product (its SKU or id in your catalogue), with the product beside it (`?product=`). Best
   * with `mode: 'inline'`; not with `campaignUid`. The clip's code loads only then.
   */
  seenLive?: string;
}

/** What a page can give again on restore: the functions and sets a saved player cannot carry over. */
export type UpdateOptions = Pick<InitOptions, 'handlers' | 'usableActions' | 'supportedFeatures'>;

export interface Player {
  readonly playerId: string;
  readonly iframe: HTMLIFrameElement;
  readonly minimized: boolean;
  /** Posts a message to the player; held until the player is ready. Throws on an unknown type or bad payload. */
  send<T extends HostToPlayerType>(type: T, payload: HostToPlayerPayloads[T]): void;
  /** Shrinks the player to its corner box and tells the player. */
  minimize(): void;
  /** Tells the player it is closed, hides it at once and removes it shortly after. */
  close(): void;
  /** Removes the player without telling it. */
  destroy(): void;
  /** Adds a handler; returns a function that removes it. */
  on<T extends PlayerToHostType>(type: T, handler: Handler<T>): () => void;
  /** Replaces handlers (merged by type), usable actions or features, and tells a ready player. */
  update(options: UpdateOptions): void;
}

export interface Vitrine {
  readonly version: string;
  init(options: InitOptions): Player;
  /**
   * Brings back the player that was minimized on the previous page of this tab, with these
   * handlers; returns it (or the one already restored, updated), or null when there was none.
   */
  restore(options?: UpdateOptions): Player | null;
  players(): Player[];
}

export const VERSION = '0.1.0';
const STORAGE_KEY = 'vitrine:minimized';
const CLOSE_DELAY_MS = 250;
const QUEUE_MAX = 100;

const CSS =
  '.vitrine-root{position:relative;box-sizing:border-box}' +
  '.vitrine-fill{width:100%;height:100%}' +
  '.vitrine-inline{width:100%}' +
  '.vitrine-modal{position:fixed;inset:0;z-index:2147483000;background:rgba(0,0,0,.6)}' +
  '.vitrine-modal.vitrine-root-min{inset:auto;width:0;height:0;background:none}' +
  '.vitrine-box{position:absolute;inset:0}' +
  '.vitrine-box iframe{display:block;width:100%;height:100%;border:0}' +
  '.vitrine-min{position:fixed;inset:auto;z-index:2147483000;border-radius:12px;box-shadow:0 8px 28px rgba(0,0,0,.35)}' +
  '.vitrine-min iframe{border-radius:12px}' +
  '.vitrine-x{position:absolute;top:10px;right:10px;width:36px;height:36px;padding:0;border:0;border-radius:50%;background:rgba(0,0,0,.6);color:#fff;font:22px/36px system-ui,sans-serif;cursor:pointer}' +
  '.vitrine-min .vitrine-x{top:-10px;right:auto;left:-10px;width:24px;height:24px;font-size:15px;line-height:24px}';

const warn = (...args: unknown[]) => console.error('[vitrine]', ...args);

let counter = 0;
const newPlayerId = () =>
  `vp-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}${++counter}`;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

interface Saved {
  playerId: string;
  config: PlayerConfig;
  /** The show and time to bring back (the player's last playback_position). */
  position: PlaybackPosition | null;
}

function readSaved(): Saved | null {
  try {
    const saved = JSON.parse(storage()?.getItem(STORAGE_KEY) ?? 'null');
    return isObject(saved) && typeof saved.playerId === 'string' && /^[\w-]{1,100}$/.test(saved.playerId)
      ? {
          playerId: saved.playerId,
          config: playerConfig(saved.config as Record<string, unknown>, null),
          position: playbackPosition(saved.position),
        }
      : null;
  } catch {
    return null;
  }
}

/** A Vitrine instance; `defaultOrigin` is the server the loader came from (null for the ESM build). */
export function createVitrine(defaultOrigin: string | null): Vitrine {
  interface Internal {
    api: Player;
    config: PlayerConfig;
    receive(type: PlayerToHostType, payload: Record<string, unknown>): void;
    /** Shown full-window now (a modal or restored player that is not minimized). */
    covers(): boolean;
    notifyResize(): void;
  }
  const players = new Set<Internal>();
  let restored: Internal | null = null;
  let styled = false;
  let locks = 0;
  let savedOverflow = '';

  function lock(on: boolean) {
    const root = document.documentElement;
    if (on && locks++ === 0) {
      savedOverflow = root.style.overflow;
      root.style.overflow = 'hidden';
    } else if (!on && locks > 0 && --locks === 0) root.style.overflow = savedOverflow;
  }

  window.addEventListener('message', (event) => {
    for (const p of players) {
      // The sender first: this player's window, from the player's origin. Anything else is not ours.
      if (event.source === null || event.source !== p.api.iframe.contentWindow) continue;
      if (event.origin !== p.config.origin) return;
      const message = parsePlayerMessage(event.data, p.api.playerId);
      if (message) p.receive(message.type, message.payload);
      return;
    }
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const open = [...players].filter((p) => p.covers()).pop();
    open?.api.close();
  });
  let resizeQueued = false;
  window.addEventListener('resize', () => {
    if (resizeQueued) return;
    resizeQueued = true;
    requestAnimationFrame(() => {
      resizeQueued = false;
      for (const p of players) p.notifyResize();
    });
  });

  function createPlayer(
    config: PlayerConfig,
    container: Element | null,
    handlers: Handlers | undefined,
    start: {
      playerId: string;
      minimized: boolean;
      restored: boolean;
      position: PlaybackPosition | null;
      /** Take the corner of the page's settings (player_ready), as init gave none. */
      pageBox?: boolean;
    },
  ): Internal {
    if (!styled) {
      styled = true;
      const style = document.createElement('style');
      style.textContent = CSS;
      document.head.append(style);
    }
    const { playerId } = start;
    // A restored player has no container on this page: it lives as a modal.
    const overlay = start.restored || config.mode === 'modal';
    const listeners = new Map<string, Set<Handler>>();
    let usableActions = config.usableActions;
    let features = config.supportedFeatures;
    let ready = false;
    let minimized = false;
    let locked = false;
    let gone = false;
    let position = start.position;
    const queue: object[] = [];

    const root = document.createElement('div');
    root.className = `vitrine-root vitrine-${overlay ? 'modal' : config.mode === 'inline' ? 'inline' : 'fill'}`;
    if (config.mode === 'inline' && !overlay) root.style.aspectRatio = config.aspectRatio.replace(':', ' / ');
    const box = document.createElement('div');
    box.className = 'vitrine-box';
    const iframe = document.createElement('iframe');
    iframe.title = 'Live shopping player';
    iframe.allow = 'autoplay; fullscreen; picture-in-picture; clipboard-write; web-share';
    iframe.allowFullscreen = true;
    iframe.src = widgetUrl(config, playerId, location.origin, start.minimized, position, Date.now());
    box.append(iframe);
    let fallbackClose: HTMLButtonElement | null = null;
    if (overlay) {
      root.setAttribute('role', 'dialog');
      root.setAttribute('aria-modal', 'true');
      root.setAttribute('aria-label', iframe.title);
      // Until the player is ready (or if it never is: refused origin, no network), the page's own way out.
      const x = document.createElement('button');
      fallbackClose = x;
      x.type = 'button';
      x.className = 'vitrine-x';
      x.setAttribute('aria-label', 'Close');
      x.textContent = '×';
      x.onclick = () => api.close();
      box.append(x);
    }
    root.append(box);

    const post = (message: object) => {
      if (gone) return;
      if (!ready) {
        if (queue.length < QUEUE_MAX) queue.push(message);
        return;
      }
      iframe.contentWindow?.postMessage(message, config.origin);
    };
    const emit = (type: string, payload: object) => {
      const message = hostMessage(playerId, type, payload);
      if (message instanceof Error) throw new TypeError(`Vitrine: ${message.message}`);
      post(message);
    };
    const capabilities = (): HostCapabilities => ({
      usableActions,
      emittableEvents: [...listeners.keys()].filter((type) => listeners.get(type)!.size > 0),
      supportedFeatures: features,
    });
    const sendCapabilities = () => ready && emit('capabilities', capabilities());

    const setLock = (on: boolean) => {
      if (on === locked) return;
      locked = on;
      lock(on);
    };
    const save = (on: boolean) => {
      const s = storage();
      try {
        if (on)
          s?.setItem(
            STORAGE_KEY,
            JSON.stringify({
              playerId,
              config: { ...config, usableActions, supportedFeatures: features },
              position,
            }),
          );
        else if (readSaved()?.playerId === playerId) s?.removeItem(STORAGE_KEY);
      } catch {
        // Storage full or blocked: the player just does not come back on the next page.
      }
    };
    const layout = (min: boolean) => {
      minimized = min;
      const m = config.minimized;
      box.classList.toggle('vitrine-min', min);
      root.classList.toggle('vitrine-root-min', min);
      const s = box.style;
      s.width = min ? `${m.width}px` : '';
      s.height = min ? `${m.height}px` : '';
      s[m.horizontal] = min ? `${m.horizontalMargin}px` : '';
      s[m.vertical] = min ? `${m.verticalMargin}px` : '';
      setLock(overlay && !min);
      save(min);
    };

    const dispatch = (type: string, payload: unknown) => {
      for (const handler of listeners.get(type) ?? []) {
        try {
          const result = handler(payload as never, api.send, api) as { then?: unknown } | undefined;
          if (typeof result?.then === 'function') (result as Promise<unknown>).then(undefined, warn);
        } catch (error) {
          warn(error);
        }
      }
    };

    const api: Player = {
      playerId,
      iframe,
      get minimized() {
        return minimized;
      },
      send: emit,
      minimize() {
        emit('minimize', {});
        layout(true);
      },
      close() {
        if (gone) return;
        emit('close', {});
        root.style.display = 'none';
        setLock(false);
        save(false);
        setTimeout(api.destroy, CLOSE_DELAY_MS);
      },
      destroy() {
        if (gone) return;
        gone = true;
        players.delete(internal);
        if (restored === internal) restored = null;
        setLock(false);
        save(false);
        root.remove();
      },
      on(type, handler) {
        const set = listeners.get(type) ?? new Set();
        listeners.set(type, set);
        const added = !set.size;
        set.add(handler as Handler);
        if (added) sendCapabilities();
        return () => {
          set.delete(handler as Handler);
          if (!set.size) sendCapabilities();
        };
      },
      update(options) {
        for (const [type, handler] of Object.entries(options.handlers ?? {})) {
          listeners.set(type, new Set(typeof handler === 'function' ? [handler as Handler] : []));
        }
        if (options.usableActions)
          usableActions = playerConfig({ ...config, ...options }, null).usableActions;
        if (options.supportedFeatures) features = cleanFeatures(options.supportedFeatures);
        sendCapabilities();
        if (minimized) save(true);
      },
    };

    const internal: Internal = {
      api,
      config,
      covers: () => overlay && !minimized && !gone,
      notifyResize: () => {
        if (ready) emit('parent_resize', { width: innerWidth, height: innerHeight });
      },
      receive(type, payload) {
        if (type === 'player_ready') {
          ready = true;
          // A ready player shows its own close (and minimize) controls.
          if (fallbackClose) fallbackClose.hidden = true;
          if (start.pageBox && isObject(payload.minimizedBox))
            config.minimized = playerConfig({ ...config, minimized: payload.minimizedBox }, null).minimized;
          sendCapabilities();
          if (minimized) emit('minimize', {});
          internal.notifyResize();
          for (const message of queue.splice(0)) post(message);
        }
        dispatch(type, payload);
        if (type === 'playback_position') {
          position = playbackPosition({ ...payload, at: Date.now() });
          // Kept up to date while minimized: the page may be left at any moment.
          if (minimized) save(true);
        } else if (type === 'minimize' && features.MINIMIZED_PLAYER !== false) layout(true);
        else if (type === 'maximize') layout(false);
        else if (type === 'close') api.destroy();
        else if (type === 'go_to_url' && !listeners.get(type)?.size) {
          const { url, newTab } = payload as PlayerToHostPayloads['go_to_url'];
          const target = navigationUrl(url, location.href);
          if (!target) return;
          if (newTab) window.open(target, '_blank', 'noopener');
          else {
            // The show goes on in the corner of the next page.
            if (features.MINIMIZED_PLAYER !== false && !minimized) api.minimize();
            location.assign(target);
          }
        }
      },
    };

    api.update({ handlers: handlers ?? {} });
    players.add(internal);
    (container ?? document.body).append(root);
    layout(start.minimized);
    return internal;
  }

  return {
    version: VERSION,
    init(options) {
      const config = playerConfig(options as unknown as Record<string, unknown>, defaultOrigin);
      let container: Element | null = null;
      if (config.mode !== 'modal') {
        const given = options.container;
        container = typeof given === 'string' ? document.querySelector(given) : (given ?? null);
        if (!container) fail(`mode ${config.mode} needs a \`container\``);
      }
      return createPlayer(config, container, options.handlers, {
        playerId: newPlayerId(),
        minimized: false,
        restored: false,
        position: null,
        pageBox: !options.minimized,
      }).api;
    },
    restore(options = {}) {
      if (restored) {
        restored.api.update(options);
        return restored.api;
      }
      const saved = readSaved();
      if (!saved || (defaultOrigin && saved.config.origin !== defaultOrigin)) return null;
      if ([...players].some((p) => p.api.playerId === saved.playerId)) return null;
      // It comes back as a modal: the container it had may not exist on this page.
      const config: PlayerConfig = { ...saved.config, mode: 'modal' };
      if (options.usableActions || options.supportedFeatures) {
        Object.assign(config, playerConfig({ ...config, ...options }, null));
      }
      restored = createPlayer(config, null, options.handlers, { ...saved, minimized: true, restored: true });
      return restored.api;
    },
    players: () => [...players].map((p) => p.api),
  };
}
