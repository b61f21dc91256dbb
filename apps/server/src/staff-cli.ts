import type { Config } from './config.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open-database.ts';
import { createAuthService } from './features/auth/auth-service.ts';
import { createStaffService } from './features/staff/staff-service.ts';
import { createStoreService } from './features/stores/store-service.ts';
import { createUserService } from './features/users/user-service.ts';
import { createMemoryChangeBus } from './realtime/memory-change-bus.ts';
import { createOutbox, withOutbox } from './realtime/outbox.ts';

/** What the staff command-line tools (studio-owner.ts, studio-link.ts) work with. */
export interface StaffTools {
  db: Awaited<ReturnType<typeof openDatabase>>;
  stores: ReturnType<typeof createStoreService>;
  users: ReturnType<typeof createUserService>;
  staff: ReturnType<typeof createStaffService>;
}

/** A line the tools' services log goes to standard error, so standard output holds only their answer. */
function logLine(fields: unknown, message?: string): void {
  process.stderr.write(`${message ?? ''} ${JSON.stringify(fields)}\n`);
}
const stderrLog = { warn: logLine, error: logLine };

/**
 * Opens the server's database (migrated) with the stores, users and staff services, and nothing
 * else: a command-line tool must open no listener (no HTTP, RTMP or WHIP port; it runs beside the
 * serving process) and start no background work. Their writes go through an in-process outbox
 * with no subscriber: a running server reads what they wrote from the database.
 */
export async function withStaffTools<T>(config: Config, work: (tools: StaffTools) => Promise<T>): Promise<T> {
  const db = await openDatabase(config.database);
  const bus = createMemoryChangeBus();
  const outbox = createOutbox({ bus, log: stderrLog });
  try {
    await migrate(db);
    const outboxDb = withOutbox(db, outbox);
    const stores = createStoreService(outboxDb);
    const users = createUserService(outboxDb, stderrLog);
    const auth = createAuthService(outboxDb, { users });
    const staff = createStaffService({ db, users, stores, sessions: auth, now: Date.now });
    return await work({ db, stores, users, staff });
  } finally {
    await outbox.drain({ stop: true });
    await bus.close();
    await db.close();
  }
}
