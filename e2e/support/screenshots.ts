import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';

/**
 * The folder the browser tests' screenshots go to, VITRINE_SHOTS_DIR, or undefined when it is not
 * set: then the tests take none. A screenshot costs about 0.1–0.25 core-seconds of Chromium work
 * and the suite takes some 220 of them; the CI (2 cores) keeps none, and they are for a developer
 * to look at: `VITRINE_SHOTS_DIR=test-results/shots npx vitest run --project e2e e2e/<file>`.
 */
export function screenshotsDir(): string | undefined {
  const dir = process.env.VITRINE_SHOTS_DIR;
  return dir ? resolve(dir) : undefined;
}

/**
 * Saves `<VITRINE_SHOTS_DIR>/<name>.png` of a page (of its whole length with `fullPage`) or of one
 * element, creating the folder; does nothing when VITRINE_SHOTS_DIR is not set (see
 * screenshotsDir). Returns the file written, if any.
 */
export async function saveScreenshot(
  target: Page | Locator,
  name: string,
  { fullPage = false }: { fullPage?: boolean } = {},
): Promise<string | undefined> {
  const dir = screenshotsDir();
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  if (isPage(target)) await target.screenshot({ path, fullPage });
  else await target.screenshot({ path });
  return path;
}

function isPage(target: Page | Locator): target is Page {
  return 'mainFrame' in target;
}
