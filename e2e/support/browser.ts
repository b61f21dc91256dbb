import {
  type Browser,
  type BrowserContext,
  type BrowserServer,
  chromium,
  type LaunchOptions,
  type Page,
} from 'playwright-core';

/** Debian's Chromium with the flags this machine needs (no sandbox as root, no background network). */
function launchOptions(extraArgs: readonly string[]): LaunchOptions {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  };
}

/**
 * The extra flag sets the browser tests' shared Chromiums run with (e2e/global-setup.ts starts one
 * of each): no extra flag, and autoplay with sound, as the players' tests want. A file wanting
 * other flags (a fake camera) launches a Chromium of its own.
 */
export const SHARED_BROWSER_FLAGS: readonly (readonly string[])[] = [
  [],
  ['--autoplay-policy=no-user-gesture-required'],
];

/**
 * Where the shared Chromiums listen, as JSON: their flags (joined by spaces) → WebSocket endpoint.
 * Set by the global set-up before the test files' processes start, which inherit it.
 */
export const SHARED_BROWSERS_ENV = 'VITRINE_E2E_SHARED_BROWSERS';

const flagsKey = (extraArgs: readonly string[]) => extraArgs.join(' ');

/** Starts the shared Chromiums and answers the value of SHARED_BROWSERS_ENV and how to stop them. */
export async function startSharedBrowsers(): Promise<{ endpoints: string; close(): Promise<void> }> {
  const started = await Promise.allSettled(
    SHARED_BROWSER_FLAGS.map((extraArgs) => chromium.launchServer(launchOptions(extraArgs))),
  );
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const close = async () => {
    await Promise.all(servers.map((server: BrowserServer) => server.close()));
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await close();
    throw failed.reason;
  }
  const endpoints = Object.fromEntries(
    SHARED_BROWSER_FLAGS.map((extraArgs, i) => [flagsKey(extraArgs), servers[i]!.wsEndpoint()]),
  );
  return { endpoints: JSON.stringify(endpoints), close };
}

/**
 * A Chromium for one test file (or script). Where the browser tests' run started a shared one with
 * these flags, the file connects to it instead of launching its own: launching and closing
 * Chromium cost 3–5 s a file at load 14 here, 52 files a run. A connection's contexts and pages
 * close with it (`browser.close()`, or the file's process ending), so nothing a file opens outlives
 * the file; each file still gets new contexts, with nothing shared but the browser process.
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const shared = process.env[SHARED_BROWSERS_ENV];
  const endpoint = shared ? (JSON.parse(shared) as Record<string, string>)[flagsKey(extraArgs)] : undefined;
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch(launchOptions(extraArgs));
}

/** A screen's size in CSS pixels. */
export interface Viewport {
  width: number;
  height: number;
}

/** The desktop screen most browser tests use. */
export const DESKTOP: Viewport = { width: 1280, height: 800 };

/**
 * A page in a new English (en-GB) context of `browser` at `viewport`, whose uncaught errors go into
 * `pageErrors`. With `phoneWhenNarrow`, a viewport under 500 px wide is a phone's (mobile, touch).
 */
export async function englishPage(
  browser: Browser,
  pageErrors: string[],
  viewport: Viewport = DESKTOP,
  { phoneWhenNarrow = false } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const phone = phoneWhenNarrow && viewport.width < 500;
  const context = await browser.newContext({
    viewport,
    locale: 'en-GB',
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { context, page };
}
