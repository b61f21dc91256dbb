import { z } from 'zod';
import { Timestamp, Uid } from './common.ts';

/**
 * What sign-in and refresh answer: a short-lived bearer id token (sent as
 * `Authorization: Bearer <idToken>`), when it stops being accepted, and the user it names.
 */
export const AuthSession = z.object({
  idToken: z.string(),
  /** Milliseconds since the epoch; clients refresh well before (spec §7: every 30 minutes). */
  expiresAt: Timestamp,
  user: z.object({ uid: Uid, name: z.string(), isAnonymous: z.boolean() }),
});
export type AuthSession = z.infer<typeof AuthSession>;

/** `/functions/auth/signInAnonymously` takes no fields; the body is `{}` or absent. */
export const SignInAnonymouslyRequest = z.object({}).strict();
export type SignInAnonymouslyRequest = z.infer<typeof SignInAnonymouslyRequest>;

/** `/functions/auth/refreshIdToken`: the current (possibly just expired) id token. */
export const RefreshTokenRequest = z.object({ idToken: z.string().min(1).max(4096) });
export type RefreshTokenRequest = z.infer<typeof RefreshTokenRequest>;
