/**
 * Makes the README's screenshot of the demo store (docs/images/shop-page.png) from a fresh start
 * of the real server, and prints how long that first start took (database creation and demo seed
 * included), the figure the README quotes. Run with `npm run screenshots`: it brings the release
 * build up to date first, and starts that.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { updateReleaseBuild } from '../apps/server/src/test-support/release-build.ts';
import { launchChromium } from './support/browser.ts';
import { startServer } from './support/server-process.ts';

const OUTPUT = new URL('../docs/images/shop-page.png', import.meta.url).pathname;

await updateReleaseBuild();
const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-screenshots-'));
const server = await startServer({ VITRINE_DATA_DIR: dataDir, VITRINE_DEMO_RETAILER_PORT: '-1' });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/`);
  await page.locator('main h1, main h2').first().waitFor();
  // Cover images load lazily; wait until those in view have arrived.
  await page.waitForFunction(() =>
    [...document.images]
      .filter((image) => image.getBoundingClientRect().top < innerHeight)
      .every((image) => image.complete),
  );
  await page.screenshot({ path: OUTPUT });
  process.stdout.write(
    `${JSON.stringify({ screenshot: OUTPUT, firstStartMs: Math.round(server.coldStartMs) })}\n`,
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
