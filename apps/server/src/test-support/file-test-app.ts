import { afterAll, beforeAll } from 'vitest';
import type { openTestApp } from './test-app.ts';

/** What openTestApp opens: the app with its database, and `close`, which ends what it opened. */
export type TestApp = Awaited<ReturnType<typeof openTestApp>>;

/**
 * This test file's app: `open` runs before the file's tests and the app closes after them. The
 * file's own set-up goes in a beforeAll registered after this call (hooks run in order). The
 * getter throws when a test would reach the app before it is open.
 */
export function fileTestApp(open: () => Promise<TestApp>): () => TestApp {
  let opened: TestApp | undefined;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(async () => {
    await opened?.close();
  });
  return () => {
    if (!opened) throw new Error("this file's test app opens in beforeAll");
    return opened;
  };
}
