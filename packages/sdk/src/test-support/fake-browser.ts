/**
 * Just enough of a browser to run the built loader in node:vm (jsdom is not installed): elements
 * with style, classes and children, iframes whose window records what is posted to it, window and
 * document listeners the test can fire, sessionStorage, location.
 */
import { runInNewContext } from 'node:vm';

export class FakeElement {
  parent: FakeElement | null = null;
  children: FakeElement[] = [];
  style: Record<string, string> = {};
  attributes: Record<string, string> = {};
  className = '';
  textContent = '';
  onclick: (() => void) | null = null;
  hidden = false;
  // iframe properties
  src = '';
  title = '';
  allow = '';
  allowFullscreen = false;
  contentWindow: FakeWindow | null = null;
  classList = {
    toggle: (name: string, on: boolean) => {
      const names = new Set(this.className.split(' ').filter(Boolean));
      if (on) names.add(name);
      else names.delete(name);
      this.className = [...names].join(' ');
    },
    contains: (name: string) => this.className.split(' ').includes(name),
  };
  constructor(readonly tagName: string) {
    if (tagName === 'iframe') this.contentWindow = new FakeWindow();
  }
  append(...elements: FakeElement[]) {
    for (const element of elements) {
      element.parent = this;
      this.children.push(element);
    }
  }
  remove() {
    if (!this.parent) return;
    this.parent.children = this.parent.children.filter((child) => child !== this);
    this.parent = null;
    // A removed iframe has no window any more.
    for (const iframe of this.findAll('iframe')) iframe.contentWindow = null;
  }
  setAttribute(name: string, value: string) {
    this.attributes[name] = value;
  }
  findAll(tagName: string): FakeElement[] {
    return [
      ...(this.tagName === tagName ? [this] : []),
      ...this.children.flatMap((child) => child.findAll(tagName)),
    ];
  }
  get connected(): boolean {
    let node: FakeElement | null = this;
    while (node.parent) node = node.parent;
    return node.tagName === 'html';
  }
}

/** A window something can be posted to (an iframe's). */
export class FakeWindow {
  posted: {
    message: { vitrine: number; playerId: string; type: string; payload: unknown };
    targetOrigin: string;
  }[] = [];
  postMessage(message: never, targetOrigin: string) {
    this.posted.push({ message: structuredClone(message), targetOrigin });
  }
  types() {
    return this.posted.map((p) => p.message.type);
  }
}

type Listener = (event: unknown) => void;

export interface FakeBrowser {
  /** The page's global object, where the loader ran. */
  window: Record<string, unknown> & { Vitrine?: import('../vitrine.ts').Vitrine };
  html: FakeElement;
  body: FakeElement;
  storage: Map<string, string>;
  listeners: { window: Record<string, Listener[]>; document: Record<string, Listener[]> };
  navigations: string[];
  opened: string[];
  errors: unknown[][];
  run(code: string): void;
  /** Fires a message event as the browser would for a postMessage from `source`. */
  message(source: FakeWindow | null, origin: string, data: unknown): void;
  keydown(key: string): void;
  /** The iframes on the page. */
  iframes(): FakeElement[];
}

export function fakeBrowser({
  origin = 'https://shop.example',
  scriptSrc = 'https://live.example/sdk.js',
  storage = new Map<string, string>(),
}: {
  origin?: string;
  scriptSrc?: string | null;
  storage?: Map<string, string>;
} = {}): FakeBrowser {
  const html = new FakeElement('html');
  const head = new FakeElement('head');
  const body = new FakeElement('body');
  html.append(head, body);
  html.style.overflow = '';
  const listeners: FakeBrowser['listeners'] = { window: {}, document: {} };
  const on = (target: Record<string, Listener[]>) => (type: string, listener: Listener) => {
    target[type] ??= [];
    target[type].push(listener);
  };
  const navigations: string[] = [];
  const opened: string[] = [];
  const errors: unknown[][] = [];
  const selectors = new Map<string, FakeElement>();
  const document = {
    readyState: 'complete',
    currentScript: scriptSrc ? { src: scriptSrc } : null,
    documentElement: html,
    head,
    body,
    createElement: (tag: string) => new FakeElement(tag),
    querySelector: (selector: string) => selectors.get(selector) ?? null,
    addEventListener: on(listeners.document),
  };
  const window: FakeBrowser['window'] = {
    document,
    location: {
      origin,
      href: `${origin}/products/linen-shirt`,
      assign: (url: string) => navigations.push(url),
    },
    sessionStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, String(value)),
      removeItem: (key: string) => storage.delete(key),
    },
    addEventListener: on(listeners.window),
    open: (url: string) => {
      opened.push(url);
      return null;
    },
    requestAnimationFrame: (callback: () => void) => setTimeout(callback, 0),
    setTimeout,
    innerWidth: 1280,
    innerHeight: 800,
    console: { ...console, error: (...args: unknown[]) => errors.push(args) },
    URL,
    URLSearchParams,
    TextEncoder,
    JSON,
    selectors,
  };
  window.window = window;
  const fire = (target: Record<string, Listener[]>, type: string, event: unknown) => {
    for (const listener of target[type] ?? []) listener(event);
  };
  return {
    window,
    html,
    body,
    storage,
    listeners,
    navigations,
    opened,
    errors,
    run: (code) => runInNewContext(code, window),
    message: (source, origin, data) => fire(listeners.window, 'message', { source, origin, data }),
    keydown: (key) => fire(listeners.document, 'keydown', { key }),
    iframes: () => html.findAll('iframe'),
  };
}
