import type { FastifyBaseLogger, FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createAbuseLimiter } from '../http/abuse-limits.ts';
import type { OutboxDatabase } from '../realtime/outbox.ts';
import { registerAccountRoutes } from './auth/account-routes.ts';
import { createAccountService } from './auth/account-service.ts';
import type { AuthService } from './auth/auth-service.ts';
import { createOidcService } from './auth/oidc.ts';
import { createCommentService } from './comments/comment-service.ts';
import { registerCommentRoutes } from './comments/routes.ts';
import { createCompetitionService } from './competitions/competition-service.ts';
import { registerCompetitionRoutes } from './competitions/routes.ts';
import { createContactService } from './contacts/contact-service.ts';
import { registerContactRoutes } from './contacts/routes.ts';
import { createNotificationService } from './notifications/notification-service.ts';
import { createReactionService } from './reactions/reaction-service.ts';
import { registerReactionRoutes } from './reactions/routes.ts';
import type { StoreService } from './stores/store-service.ts';
import { registerUserRoutes } from './users/routes.ts';
import { createUserService } from './users/user-service.ts';

/** Accounts and live interaction (issue 6): accounts, users, comments, reactions, notifications, competitions. */
export function createInteractionServices(options: {
  db: Database;
  /** `db` with the outbox: the services that publish live changes write through it. */
  outboxDb: OutboxDatabase;
  now: () => number;
  log: FastifyBaseLogger;
  config: Config;
  auth: AuthService;
  /** Integrity settings of stores (competitions). */
  stores: StoreService;
}) {
  const { db, outboxDb, now, log, config, auth, stores } = options;
  const users = createUserService(outboxDb, log);
  const limits = createAbuseLimiter({ db, now, enabled: config.abuseLimits });
  const notifications = createNotificationService(outboxDb, now);
  const comments = createCommentService({
    db: outboxDb,
    now,
    notifications,
    rateLimit: config.commentRateLimit,
    limits,
  });
  const reactions = createReactionService(outboxDb, now);
  const contacts = createContactService(db, users, now, limits);
  const competitions = createCompetitionService({
    db: outboxDb,
    now,
    comments,
    notifications,
    users,
    limits,
    stores,
    contacts,
  });
  const accounts = createAccountService(outboxDb, auth, users, now, { abuseLimits: config.abuseLimits });
  const oidc = createOidcService(db, config.oidcProviders, { now, log });
  return { users, notifications, comments, reactions, competitions, accounts, oidc, contacts };
}

export type InteractionServices = ReturnType<typeof createInteractionServices>;

export function registerInteractionRoutes(
  app: FastifyInstance,
  services: InteractionServices & { auth: AuthService },
  requireAdmin: onRequestHookHandler,
): void {
  registerAccountRoutes(app, services);
  registerUserRoutes(app, services.users, services.auth);
  registerCommentRoutes(app, services.comments, services.auth, requireAdmin);
  registerReactionRoutes(app, services.reactions, services.auth);
  registerCompetitionRoutes(app, services.competitions, services.auth, requireAdmin);
  registerContactRoutes(app, services.contacts, services.auth);
  app.addHook('onClose', () => services.reactions.flush());
}
