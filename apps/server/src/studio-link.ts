import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { studioLinkUrl } from './features/staff/routes.ts';
import { withStaffTools } from './staff-cli.ts';

/**
 * Prints a fresh one-time studio sign-in link for an existing staff member (an owner who lost her
 * session, a host on a new computer), run on the server: `npm run studio:link -- --email …`. The
 * account must be staff of a store; `npm run studio:owner` makes one an owner. Uses the server's
 * database settings and opens no listener.
 */
const USAGE = 'Usage: npm run studio:link -- --email owner@shop.example';

const { values } = parseArgs({ options: { email: { type: 'string' } } });
const email = values.email?.trim().toLowerCase();
if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

const config = loadConfig();
const refusal = await withStaffTools(config, async ({ users, staff }) => {
  const userUid = await users.uidByEmail(email);
  if (!userUid) return `There is no account with the e-mail ${email}.`;
  const { stores } = await staff.studioSession(userUid);
  if (stores.length === 0) {
    return `${email} is not staff of any store. Make them an owner with npm run studio:owner, or invite them from the studio.`;
  }
  const token = await staff.createStudioLink(userUid);
  const origin = config.publicUrl ?? `http://localhost:${config.port}`;
  const roles = stores.map((store) => `${store.role} of ${store.name} (${store.pageUid})`).join(', ');
  process.stdout.write(
    `${email} is ${roles}. Open this one-time link to sign in to the studio (valid 24 hours):\n  ${studioLinkUrl(origin, token)}\n`,
  );
  return null;
});
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
