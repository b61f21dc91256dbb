// The plain values of accounts and live interaction, in a module without zod so the player can
// import them without bundling zod (the package is marked side-effect free). The schemas that
// use them (comments.ts, accounts.ts, interaction.ts) import them from here.

/** Longest comment a viewer can post. */
export const COMMENT_MAX_LENGTH = 500;

/** At most this many comments per user per COMMENT_RATE_WINDOW_MS (per campaign). */
export const COMMENT_RATE_LIMIT = 5;
export const COMMENT_RATE_WINDOW_MS = 10_000;

export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const USER_NAME_MAX_LENGTH = 60;

/** notificationType / notificationSubType values the server writes. */
export const NOTIFICATION_TYPE = { message: 'message', competition: 'competition' } as const;
export const NOTIFICATION_SUB_TYPE = { hostReply: 'host reply', competition: 'competition' } as const;

/**
 * The header the player sends its viewer id in with comments, reactions and competition entries:
 * the random id of this browser (the web app's lib/tracking.ts), so a ban covers the device and
 * not only the account (issue 33 §4). A missing or malformed one is ignored.
 */
export const VIEWER_ID_HEADER = 'x-vitrine-viewer';
