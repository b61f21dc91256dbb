/** The shortest admin key a server starts with: 32 characters, what 24 random bytes give in base64url. */
export const ADMIN_KEY_MIN_LENGTH = 32;
/** The fewest different characters an admin key may hold: `aaaa…` or `abab…` is no secret. */
export const ADMIN_KEY_MIN_DISTINCT_CHARACTERS = 10;

/**
 * Why an admin key is too weak to guard the admin API, or null when it is strong enough. The
 * key opens every store's data, so a short or repetitive one (guessable, or typed as a
 * placeholder and forgotten) must stop the server rather than run with it.
 */
export function adminKeyWeakness(key: string): string | null {
  const length = [...key].length;
  if (length < ADMIN_KEY_MIN_LENGTH)
    return `VITRINE_ADMIN_KEY is too short: ${length} characters, at least ${ADMIN_KEY_MIN_LENGTH} are needed (e.g. openssl rand -base64 32).`;
  const distinct = new Set(key).size;
  if (distinct < ADMIN_KEY_MIN_DISTINCT_CHARACTERS)
    return `VITRINE_ADMIN_KEY has only ${distinct} different characters, at least ${ADMIN_KEY_MIN_DISTINCT_CHARACTERS} are needed: use a random key (e.g. openssl rand -base64 32).`;
  return null;
}

/** The oldest ffmpeg the live packaging works with (fMP4 HLS, the options it passes). */
export const FFMPEG_MIN_MAJOR_VERSION = 5;

/**
 * The version of `ffmpeg -version`'s first line ("ffmpeg version 6.1.1-3ubuntu5 Copyright…",
 * "ffmpeg version n7.0", "ffmpeg version 5.1.6-0+deb12u1"): its major number and the whole text.
 * A build from git ("N-112345-g…") has no release number: null major, taken as new enough.
 */
export function parseFfmpegVersion(firstLine: string): { text: string; major: number | null } | null {
  const match = /^ffmpeg version (\S+)/.exec(firstLine.trim());
  if (!match?.[1]) return null;
  const text = match[1];
  const release = /^n?(\d+)\.\d+/.exec(text);
  return { text, major: release ? Number(release[1]) : null };
}

/** Whether an ffmpeg of this version can package live streams. */
export const ffmpegVersionSupported = (version: { major: number | null }) =>
  version.major === null || version.major >= FFMPEG_MIN_MAJOR_VERSION;

/** How long an e-mailed sign-in link or password reset works. */
export const ACCOUNT_RECOVERY_TTL_MS = 30 * 60_000;
/** Recovery mails per e-mail address per window: enough to retry, too few to flood a mailbox. */
export const ACCOUNT_RECOVERY_PER_EMAIL = { max: 5, windowMs: 60 * 60_000 };
/** Recovery requests per client address per window, whatever the e-mail. */
export const ACCOUNT_RECOVERY_PER_ADDRESS = { max: 20, windowMs: 60 * 60_000 };

/** A store id made from its name for its URLs ("Nordlys Living" → "nordlys-living"); "store" when nothing is left. */
export function storeIdFromName(name: string): string {
  const id = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return id || 'store';
}
