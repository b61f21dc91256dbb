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
  /**
   * Exchange it at `/functions/auth/refreshIdToken` for the next session. Rotating: each is
   * good for one exchange; replaying a spent one revokes the whole sign-in (see accounts.ts).
   */
  refreshToken: z.string(),
});
export type AuthSession = z.infer<typeof AuthSession>;

/** `/functions/auth/signInAnonymously` takes no fields; the body is `{}` or absent. */
export const SignInAnonymouslyRequest = z.object({}).strict();
export type SignInAnonymouslyRequest = z.infer<typeof SignInAnonymouslyRequest>;

/**
 * `/functions/auth/refreshIdToken`: either the rotating `refreshToken` of the last session
 * (preferred), or the legacy current id token — accepted for anonymous users up to a week after
 * expiry, for signed-in users only while it has not expired.
 */
export const RefreshTokenRequest = z
  .object({
    refreshToken: z.string().min(20).max(256).optional(),
    idToken: z.string().min(1).max(4096).optional(),
  })
  .strict()
  .refine(
    (request) => (request.refreshToken === undefined) !== (request.idToken === undefined),
    'send either refreshToken or idToken',
  );
export type RefreshTokenRequest = z.infer<typeof RefreshTokenRequest>;
