import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser.ts';

/**
 * A Chromium for the calling test file, launched before its tests and closed after them (the call,
 * at the file's top level, registers the file's beforeAll and afterAll). Answers the browser's
 * getter: the browser exists only once the file's tests start.
 */
export function chromiumForFile(extraArgs: string[] = []): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium(extraArgs);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("the file's Chromium is not launched yet: use it from a test or hook");
    return browser;
  };
}
