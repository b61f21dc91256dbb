// The migrated embedded database the integration suite and the browser tests start from
// (apps/server/src/test-support/pglite-template.ts), made before they start, or found from an
// earlier run: parts that start side by side would otherwise each make it at the same time.
import { cachedMigratedPgliteTemplate } from '../apps/server/src/test-support/pglite-template.ts';

console.log(`migrated embedded database: ${await cachedMigratedPgliteTemplate()}`);
