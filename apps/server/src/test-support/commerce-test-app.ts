import { beforeAll } from 'vitest';
import { seedCommerceStore } from './commerce-fixture.ts';
import { fileTestApp, type TestApp } from './file-test-app.ts';
import { openTestApp } from './test-app.ts';

/**
 * This test file's app (`openTestApp` with `app`), with the fixture's store seeded before the
 * file's tests (`seedCommerceStore` with `store`, on the real clock unless it gives `now`).
 */
export function commerceTestApp(
  options: {
    app?: Parameters<typeof openTestApp>[0];
    store?: Partial<Parameters<typeof seedCommerceStore>[1]>;
  } = {},
): () => TestApp {
  const app = fileTestApp(() => openTestApp(options.app));
  beforeAll(() => seedCommerceStore(app(), { now: Date.now(), ...options.store }));
  return app;
}
