import { parseArgs } from 'node:util';
import { PageInput } from '@vitrine/protocol';
import { loadConfig } from './config.ts';
import { ensureOwnerLink } from './features/staff/first-owner.ts';
import { studioLinkUrl } from './features/staff/routes.ts';
import { withStaffTools } from './staff-cli.ts';

/**
 * First run of a deployment without the demo: creates a store (when its id is new) and makes the
 * account with the e-mail its owner, then prints a one-time studio link that signs them in.
 * Run again for a new link. Uses the same database settings as the server (DATABASE_URL or
 * VITRINE_DATA_DIR); opens no listener, so it runs beside the server. See docs/operations.md
 * "The first store and owner".
 */
const USAGE =
  'Usage: npm run studio:owner -- --email owner@shop.example --store-name "My shop" [--store-id my-shop] [--name "Owner name"]';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    'store-name': { type: 'string' },
    'store-id': { type: 'string' },
    name: { type: 'string' },
  },
});
const email = values.email?.trim().toLowerCase();
const storeName = values['store-name']?.trim();
if (!email || !/^[^@\s]+@[^@\s]+$/.test(email) || !storeName) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const storeId =
  values['store-id'] ??
  storeName
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
if (!/^[A-Za-z0-9_-]{1,64}$/.test(storeId)) {
  process.stderr.write(`The store id "${storeId}" may only hold letters, digits, - and _.\n${USAGE}\n`);
  process.exit(2);
}

const config = loadConfig();
await withStaffTools(config, async ({ db, stores, users, staff }) => {
  if (!(await stores.pageExists(storeId))) {
    await stores.upsertPage(
      storeId,
      PageInput.parse({
        name: storeName,
        address: { name: storeName, street: '', postCode: '', city: '', email, phone: '' },
      }),
    );
    process.stdout.write(`Created the store "${storeName}" (${storeId}).\n`);
  }
  const token = await ensureOwnerLink(
    { db, users, staff },
    { pageUid: storeId, email, name: values.name ?? '' },
  );
  const origin = config.publicUrl ?? `http://localhost:${config.port}`;
  process.stdout.write(
    `${email} is an owner of ${storeId}. Open this one-time link to sign in to the studio (valid 24 hours):\n  ${studioLinkUrl(origin, token)}\n`,
  );
});
