import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_TRANSCODE_BUDGET,
  defaultLiveProfile,
  type LiveProfile,
  parseLiveProfile,
  parseTranscodeBudget,
  type TranscodeBudget,
} from '@vitrine/domain';
import { z } from 'zod';

/**
 * A social sign-in provider, as configured in VITRINE_OIDC_PROVIDERS (a JSON array). Declared here,
 * with the rest of the environment, so config.ts depends on no feature.
 */
export const OidcProviderConfig = z
  .object({
    id: z.string().regex(/^[a-z0-9-]{1,64}$/, 'must be lowercase letters, digits and "-"'),
    name: z.string().min(1),
    issuer: z.url(),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1).optional(),
    /** Where the provider sends the browser back; the web app's /auth/callback by default. */
    redirectUri: z.url().optional(),
    scope: z.string().default('openid email profile'),
  })
  .strict();
export type OidcProviderConfig = z.infer<typeof OidcProviderConfig>;
export const OidcProviderList = z.array(OidcProviderConfig);

const Environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Pretty, human-readable logs instead of JSON lines; by default pretty on a terminal only. */
  LOG_PRETTY: z.enum(['0', '1']).optional(),
  /** PostgreSQL server; when absent the embedded PGlite database in VITRINE_DATA_DIR is used. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  VITRINE_DATA_DIR: z.string().default('./.vitrine-data'),
  /** Where uploaded images are kept; `<VITRINE_DATA_DIR>/media` by default. */
  VITRINE_MEDIA_DIR: z.string().optional(),
  /** Redis for the change bus, so several server processes share live queries; in-process when absent. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL')
    .optional(),
  /** Key for the admin HTTP API; a random one is generated (and logged) when not set. */
  VITRINE_ADMIN_KEY: z.string().min(16, 'VITRINE_ADMIN_KEY must be at least 16 characters').optional(),
  /** Base URL of the main connection (/functions/…); empty means this server. */
  VITRINE_MAIN_URL: z.string().default(''),
  /**
   * The address people reach this server at (https://shop.example.com), for links sent by e-mail
   * or printed (studio links, invitations); without it, a link takes the request's own origin.
   */
  VITRINE_PUBLIC_URL: z
    .string()
    .url()
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  /** Base URL of the shop connection (/shopapiv2/…); empty means this server. */
  VITRINE_SHOP_URL: z.string().default(''),
  /** Store shown at the site root; the first store made by default (the setup page while there is none). */
  VITRINE_DEFAULT_PAGE: z.string().optional(),
  /** Seed the demo store on first start with an empty database. */
  VITRINE_SEED_DEMO: z.enum(['0', '1']).default('1'),
  /**
   * Port of the demo retailer site (apps/demo-retailer), served with the demo store: PORT + 1 by
   * default, 0 for any free port, -1 for none.
   */
  VITRINE_DEMO_RETAILER_PORT: z.coerce.number().int().min(-1).max(65535).optional(),
  /** Built web app to serve; the app is not served when the folder is missing. */
  VITRINE_WEB_DIST: z.string().default(new URL('../../web/dist', import.meta.url).pathname),
  /**
   * Social sign-in providers (OpenID Connect), a JSON array of
   * {id, name, issuer, clientId, clientSecret?, redirectUri?, scope?}; none by default.
   */
  /**
   * Comments per user per window, "MAX/SECONDS" (default 5/10), or "off" — for benchmarks whose
   * single writer posts many comments a second.
   */
  /**
   * New accounts per client address per window, "MAX/SECONDS" (default 20/600). Raised only for
   * browser tests, whose many shoppers and staff sign up from one address.
   */
  VITRINE_SIGN_UP_LIMIT: z
    .string()
    .regex(/^[1-9][0-9]{0,5}\/[1-9][0-9]{0,4}$/, 'must be "MAX/SECONDS" (e.g. 20/600)')
    .default('20/600'),
  VITRINE_COMMENT_RATE_LIMIT: z
    .string()
    .regex(/^(off|[1-9][0-9]{0,5}\/[1-9][0-9]{0,4})$/, 'must be "MAX/SECONDS" (e.g. 5/10) or "off"')
    .default('5/10'),
  /** Moderation actions per staff member (hide, ban, answer…): "MAX/SECONDS" or "off" (benchmarks). */
  VITRINE_MODERATION_RATE_LIMIT: z
    .string()
    .regex(/^(off|[1-9][0-9]{0,5}\/[1-9][0-9]{0,4})$/, 'must be "MAX/SECONDS" (e.g. 60/10) or "off"')
    .default('60/10'),
  /**
   * Prefix of every Redis key and channel of the change bus: deployments sharing one Redis need
   * different prefixes, or they see each other's changes.
   */
  VITRINE_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1–64 letters, digits or : _ . -')
    .default('vitrine:'),
  /**
   * Which proxies' X-Forwarded-For to believe for the client address that per-address limits
   * count: "false" (default: the TCP peer), "true" (any), or comma-separated proxy addresses/CIDRs.
   */
  VITRINE_TRUST_PROXY: z
    .string()
    .regex(/^(true|false|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/, 'must be true, false or proxy addresses')
    .default('false'),
  /**
   * Per-user and per-address limits against abuse with cheap identities (account creation,
   * pings, cart changes, contact capture, competition entries); "off" only for tests and benchmarks.
   */
  VITRINE_ABUSE_LIMITS: z.enum(['on', 'off']).default('on'),
  /**
   * What a product import does with its images' URLs: "copy" them into the media store (the
   * default), leave them "link"ed where the file says, or "copy-any-address", which also fetches
   * from private network addresses (only for tests, whose image server is on 127.0.0.1).
   */
  VITRINE_IMPORT_IMAGES: z.enum(['copy', 'link', 'copy-any-address']).default('copy'),
  /**
   * Tracking events one client address may send per minute (/shopapiv2/tracking). Raise it where
   * many viewers share one address (a venue behind one NAT; the browser tests).
   */
  VITRINE_TRACKING_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /** Days raw tracking events are kept (rollups are kept); analytics purges older ones. */
  VITRINE_TRACKING_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /**
   * The built-in test payment provider (a page where the shopper approves or declines, no real
   * money): "on" or "off"; on unless NODE_ENV is "production".
   */
  VITRINE_TEST_PAYMENTS: z.enum(['on', 'off']).optional(),
  /**
   * What an answer that does not fit its call's response schema does: "fail" (a 500, so a test
   * sees the drift), "warn" (logged, answered as is) or "off" (not checked); "fail" unless NODE_ENV
   * is "production", where it is "off".
   */
  VITRINE_CHECK_RESPONSES: z.enum(['fail', 'warn', 'off']).optional(),
  NODE_ENV: z.string().optional(),
  /** Stripe Checkout: the secret API key (sk_…); Stripe payments are offered when it is set. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** Signing secret of the Stripe webhook endpoint /payments/stripe/webhook (whsec_…). */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Stripe's API base URL; only tests point it elsewhere. */
  STRIPE_API_BASE: z.string().url().default('https://api.stripe.com'),
  /**
   * SMTP server mails are sent through (smtp://user:pass@host:587, smtps://… for TLS); without it
   * mails are kept in the database and read in the studio's outbox.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional(),
  /** The sender of every mail, e.g. "Vitrine <shop@example.com>". */
  MAIL_FROM: z.string().min(3).default('Vitrine <no-reply@vitrine.invalid>'),
  /** Port of the RTMP ingest (OBS: rtmp://<host>:<port>/live); 0 for any free port, "off" for none. */
  RTMP_PORT: z
    .string()
    .regex(/^(off|[0-9]{1,5})$/, 'must be a port number or "off"')
    .refine((port) => port === 'off' || Number(port) <= 65535, 'must be a port number or "off"')
    .default('1935'),
  /** How long a live show whose encoder dropped waits for it (ms) before it ends by itself. */
  LIVE_RECONNECT_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /** The ffmpeg that packages live streams; `ffmpeg` on PATH when not set. */
  FFMPEG_PATH: z.string().min(1).optional(),
  /** Where live recordings (HLS segments, the replays) are kept; `<VITRINE_DATA_DIR>/live` by default. */
  VITRINE_LIVE_DIR: z.string().optional(),
  /**
   * The most video this node transcodes (publishers sending anything but H.264): "WIDTHxHEIGHT@FPS"
   * or "none". A stream beyond it is refused with the reason in the studio; H.264 passes at any size.
   */
  /**
   * How live shows are packaged: `segment=SECONDS,window=SEGMENTS,renditions=720p30+360p30`, each
   * part optional (docs/operations.md). By default 1 s, 6 segments, 720p30; 360p30 beside it with
   * 4 cores or more.
   */
  LIVE_PROFILE: z
    .string()
    .superRefine((text, context) => {
      const read = parseLiveProfile(text, defaultLiveProfile(availableParallelism()));
      if (!read.ok) context.addIssue({ code: 'custom', message: read.message });
    })
    .optional(),
  LIVE_TRANSCODE_MAX: z
    .string()
    .refine(
      (text) => parseTranscodeBudget(text) !== null,
      'must be WIDTHxHEIGHT@FPS (e.g. 1920x1080@30) or "none"',
    )
    .default('1920x1080@30'),
  /**
   * An S3-compatible bucket for the recordings (segments and replays) instead of VITRINE_LIVE_DIR,
   * so that every node serves every replay: AWS S3, MinIO, Garage, Cloudflare R2 (docs/operations.md).
   */
  VITRINE_S3_BUCKET: z.string().min(3).max(63).optional(),
  /** The bucket service's URL (MinIO, R2, …); AWS S3 of VITRINE_S3_REGION when not set. */
  VITRINE_S3_ENDPOINT: z.string().url().optional(),
  VITRINE_S3_REGION: z.string().min(1).default('us-east-1'),
  /** The bucket's access key; the AWS SDK's own chain (AWS_* variables, roles) when not set. */
  VITRINE_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  VITRINE_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** "1": path-style URLs (MinIO needs them); "1" by default with VITRINE_S3_ENDPOINT, else "0". */
  VITRINE_S3_FORCE_PATH_STYLE: z.enum(['0', '1']).optional(),
  /** Put before every key, to share the bucket with other data (e.g. "vitrine/"). */
  VITRINE_S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_.-]+\/)*$/, 'must be folder names each ending in "/", e.g. vitrine/')
    .default(''),
  /** The bucket's public URL (or a CDN's in front of it): replay segments are redirected there. */
  VITRINE_S3_PUBLIC_URL: z.string().url().optional(),
  /**
   * Where live video runs (docs/operations.md): "child" (the default) in a media worker this
   * server starts and restarts, so a crash of video never takes checkout down; "inline" in this
   * server's process; or the URL of a media worker run on its own (`npm run media`), with
   * LIVE_MEDIA_TOKEN.
   */
  LIVE_MEDIA: z
    .string()
    .refine(
      (text) => text === 'inline' || text === 'child' || /^https?:\/\/[^/]+\/?$/.test(text),
      'must be "inline", "child" or a media worker\'s URL such as http://10.0.0.5:8091',
    )
    .default('child'),
  /** The secret a media worker and its web servers share (at least 32 characters); a child gets its own. */
  LIVE_MEDIA_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The media worker's listener (`npm run media`): its port, and its address (loopback by default). */
  MEDIA_PORT: z.coerce.number().int().min(0).max(65535).default(8091),
  MEDIA_HOST: z.string().min(1).default('127.0.0.1'),
  /** The WHIP ingest (browser go-live, OBS 30+ "WHIP") at /whip: "on" or "off". */
  WHIP: z.enum(['on', 'off']).default('on'),
  /**
   * Addresses offered to WHIP publishers beside this machine's interfaces, comma-separated: the
   * public address of a node behind NAT, and the loopback for an encoder on the same machine.
   */
  WHIP_HOST_ADDRESSES: z
    .string()
    .regex(/^[0-9a-fA-F.:]+(,[0-9a-fA-F.:]+)*$/, 'must be IP addresses separated by commas')
    .default('127.0.0.1'),
  /** The UDP ports WHIP media arrives on ("min-max"), for a firewall; any free port when not set. */
  WHIP_ICE_PORTS: z
    .string()
    .regex(/^[0-9]{1,5}-[0-9]{1,5}$/, 'must be a port range such as 40000-40099')
    .refine((range) => {
      const [min = 0, max = 0] = range.split('-').map(Number);
      return min >= 1024 && max <= 65535 && min < max;
    }, 'must be two ports from 1024 to 65535, the first below the second')
    .optional(),
  /**
   * The demo's live show as a real stream (an ffmpeg encoder looping the demo video into the
   * RTMP ingest) when ffmpeg is present: "1" (default) or "0" for the plain MP4.
   */
  VITRINE_DEMO_LIVE: z.enum(['0', '1']).default('1'),
  VITRINE_OIDC_PROVIDERS: z
    .string()
    .default('[]')
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: 'must be a JSON array' });
        return z.NEVER;
      }
    })
    .pipe(OidcProviderList),
});

/** An S3-compatible bucket for the live recordings (AWS S3, MinIO, Garage, Cloudflare R2, …): VITRINE_S3_* settings. */
export interface S3StoreSettings {
  bucket: string;
  /** The service's URL (MinIO, R2, …); null: AWS S3 of `region`. */
  endpoint: string | null;
  region: string;
  /** Null: the AWS SDK's own chain (environment, shared files, instance roles). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (MinIO needs it). */
  forcePathStyle: boolean;
  /** Put before every key, to share a bucket with other data (e.g. `vitrine/`). */
  prefix: string;
  /** The public URL of the bucket (or a CDN in front of it): viewers are sent there; null: the node serves. */
  publicUrl: string | null;
}

export interface Config {
  port: number;
  host: string;
  logLevel: z.infer<typeof Environment>['LOG_LEVEL'];
  logPretty: boolean;
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };
  redisUrl: string | null;
  /** The directory of uploaded images (the file media store). */
  mediaDir: string;
  /** Prefix of the change bus's Redis keys and channels. */
  redisPrefix: string;
  adminKey: string;
  adminKeyGenerated: boolean;
  mainUrl: string;
  shopUrl: string;
  /** Where people reach this server (links in e-mails and printed links); null: the request's origin. */
  publicUrl: string | null;
  /** The store shown at `/`; null: the first store made. */
  defaultPageUid: string | null;
  seedDemo: boolean;
  /** Port of the demo retailer site (0: any free one), or null when it is not served. */
  demoRetailerPort: number | null;
  webDist: string;
  oidcProviders: OidcProviderConfig[];
  /** Fastify's trustProxy: which X-Forwarded-For hops give the client address. */
  trustProxy: boolean | string;
  /** Whether the per-user and per-address abuse limits apply. */
  abuseLimits: boolean;
  /** See VITRINE_IMPORT_IMAGES. */
  importImages: 'copy' | 'link' | 'copy-any-address';
  /** Days raw tracking events are kept. */
  trackingRetentionDays: number;
  /** Tracking events per client address per minute. */
  trackingLimit: number;
  /** Whether the built-in test payment provider is offered. */
  testPayments: boolean;
  /** What an answer that drifts from its response schema does (http/register-call.ts). */
  checkResponses: 'fail' | 'warn' | 'off';
  /** Stripe Checkout, when configured. */
  stripe: { secretKey: string; webhookSecret: string; apiBase: string } | null;
  /** Mail: the SMTP server's URL (null: mails are only kept in the database) and the sender. */
  mail: { smtpUrl: string | null; from: string };
  /** Comments per user per window; null when switched off. */
  commentRateLimit: { max: number; windowMs: number } | null;
  moderationRateLimit: { max: number; windowMs: number } | null;
  /** New accounts per client address per window. */
  signUpLimit: { max: number; windowMs: number };
  /** Live video: the RTMP port (null: no RTMP ingest), reconnect grace, ffmpeg, recordings. */
  live: {
    rtmpPort: number | null;
    reconnectGraceMs: number;
    ffmpegPath: string | null;
    dir: string;
    /** Whether the demo's live show is fed by a real encoder (when ffmpeg is present). */
    demoStream: boolean;
    /** The most video transcoded (non-H.264 publishers); "none": only H.264 is taken. */
    transcodeBudget: TranscodeBudget | 'none';
    /** Segment length, live window and renditions (LIVE_PROFILE). */
    profile: LiveProfile;
    /** Where recordings are kept: the `dir` folder, or an S3-compatible bucket. */
    segmentStore: { kind: 'disk' } | ({ kind: 's3' } & S3StoreSettings);
    /** Where live video runs (LIVE_MEDIA): in this process, a child worker, or a worker at a URL. */
    media: LiveMediaSetting;
    /** A media worker's own listener (MEDIA_PORT, MEDIA_HOST) and the token it checks. */
    worker: { port: number; host: string; token: string | null };
  };
  /** WHIP ingest: whether it is offered, extra ICE host addresses and the UDP port range. */
  whip: { enabled: boolean; hostAddresses: string[]; icePortRange: [number, number] | null };
}

/** LIVE_MEDIA: live video in this process, in a child worker, or in a worker at a URL. */
export type LiveMediaSetting =
  | { kind: 'inline' }
  | { kind: 'child' }
  | { kind: 'remote'; url: string; token: string };

/** The node's live profile: LIVE_PROFILE over the default for its cores (validated with the rest). */
function liveProfileOf(setting: string | undefined): LiveProfile {
  const defaults = defaultLiveProfile(availableParallelism());
  const read = setting ? parseLiveProfile(setting, defaults) : null;
  return read?.ok ? read.profile : defaults;
}

/** The demo retailer's port: PORT + 1 unless set; a main server on any free port gets any free one too. */
function demoRetailerPort(port: number, setting: number | undefined): number | null {
  if (setting === -1) return null;
  if (setting !== undefined) return setting;
  return port === 0 || port === 65535 ? 0 : port + 1;
}

/**
 * Reads and validates configuration from the environment; throws one message listing every
 * problem. `interactive`: whether the output is a person's terminal (logs are then readable lines).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  interactive = env === process.env && process.stdout.isTTY === true,
): Config {
  // "PORT=" in an env file means "not set", not port 0.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = Environment.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  if (Boolean(e.VITRINE_S3_ACCESS_KEY_ID) !== Boolean(e.VITRINE_S3_SECRET_ACCESS_KEY)) {
    throw new Error(
      'Invalid configuration:\n  VITRINE_S3_ACCESS_KEY_ID and VITRINE_S3_SECRET_ACCESS_KEY must be set together',
    );
  }
  if (e.LIVE_MEDIA !== 'inline' && e.LIVE_MEDIA !== 'child' && !e.LIVE_MEDIA_TOKEN) {
    throw new Error(
      "Invalid configuration:\n  LIVE_MEDIA_TOKEN must be set with a media worker's URL in LIVE_MEDIA (the same on the worker)",
    );
  }
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET)) {
    throw new Error(
      'Invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    logPretty: e.LOG_PRETTY === undefined ? interactive : e.LOG_PRETTY === '1',
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dataDir: e.VITRINE_DATA_DIR },
    redisUrl: e.REDIS_URL ?? null,
    mediaDir: e.VITRINE_MEDIA_DIR ?? join(e.VITRINE_DATA_DIR, 'media'),
    redisPrefix: e.VITRINE_REDIS_PREFIX,
    adminKey: e.VITRINE_ADMIN_KEY ?? randomBytes(24).toString('base64url'),
    adminKeyGenerated: e.VITRINE_ADMIN_KEY === undefined,
    mainUrl: e.VITRINE_MAIN_URL,
    publicUrl: e.VITRINE_PUBLIC_URL ?? null,
    shopUrl: e.VITRINE_SHOP_URL,
    defaultPageUid: e.VITRINE_DEFAULT_PAGE ?? null,
    seedDemo: e.VITRINE_SEED_DEMO === '1',
    demoRetailerPort: demoRetailerPort(e.PORT, e.VITRINE_DEMO_RETAILER_PORT),
    webDist: e.VITRINE_WEB_DIST,
    oidcProviders: e.VITRINE_OIDC_PROVIDERS,
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.MAIL_FROM },
    commentRateLimit: parseRateLimit(e.VITRINE_COMMENT_RATE_LIMIT),
    moderationRateLimit: parseRateLimit(e.VITRINE_MODERATION_RATE_LIMIT),
    signUpLimit: parseRateLimit(e.VITRINE_SIGN_UP_LIMIT) ?? { max: 20, windowMs: 600_000 },
    trustProxy: parseTrustProxy(e.VITRINE_TRUST_PROXY),
    live: {
      rtmpPort: e.RTMP_PORT === 'off' ? null : Number(e.RTMP_PORT),
      reconnectGraceMs: e.LIVE_RECONNECT_GRACE_MS,
      ffmpegPath: e.FFMPEG_PATH ?? null,
      dir: e.VITRINE_LIVE_DIR ?? join(e.VITRINE_DATA_DIR, 'live'),
      demoStream: e.VITRINE_DEMO_LIVE === '1',
      transcodeBudget: parseTranscodeBudget(e.LIVE_TRANSCODE_MAX) ?? DEFAULT_TRANSCODE_BUDGET,
      profile: liveProfileOf(e.LIVE_PROFILE),
      segmentStore: e.VITRINE_S3_BUCKET
        ? {
            kind: 's3',
            bucket: e.VITRINE_S3_BUCKET,
            endpoint: e.VITRINE_S3_ENDPOINT ?? null,
            region: e.VITRINE_S3_REGION,
            credentials:
              e.VITRINE_S3_ACCESS_KEY_ID && e.VITRINE_S3_SECRET_ACCESS_KEY
                ? { accessKeyId: e.VITRINE_S3_ACCESS_KEY_ID, secretAccessKey: e.VITRINE_S3_SECRET_ACCESS_KEY }
                : null,
            forcePathStyle: (e.VITRINE_S3_FORCE_PATH_STYLE ?? (e.VITRINE_S3_ENDPOINT ? '1' : '0')) === '1',
            prefix: e.VITRINE_S3_PREFIX,
            publicUrl: e.VITRINE_S3_PUBLIC_URL ?? null,
          }
        : { kind: 'disk' },
      media:
        e.LIVE_MEDIA === 'inline' || e.LIVE_MEDIA === 'child'
          ? { kind: e.LIVE_MEDIA }
          : { kind: 'remote', url: e.LIVE_MEDIA.replace(/\/$/, ''), token: e.LIVE_MEDIA_TOKEN ?? '' },
      worker: { port: e.MEDIA_PORT, host: e.MEDIA_HOST, token: e.LIVE_MEDIA_TOKEN ?? null },
    },
    whip: {
      enabled: e.WHIP === 'on',
      hostAddresses: e.WHIP_HOST_ADDRESSES.split(','),
      icePortRange: e.WHIP_ICE_PORTS ? (e.WHIP_ICE_PORTS.split('-').map(Number) as [number, number]) : null,
    },
    abuseLimits: e.VITRINE_ABUSE_LIMITS === 'on',
    importImages: e.VITRINE_IMPORT_IMAGES,
    trackingRetentionDays: e.VITRINE_TRACKING_RETENTION_DAYS,
    trackingLimit: e.VITRINE_TRACKING_LIMIT,
    testPayments: (e.VITRINE_TEST_PAYMENTS ?? (e.NODE_ENV === 'production' ? 'off' : 'on')) === 'on',
    checkResponses: e.VITRINE_CHECK_RESPONSES ?? (e.NODE_ENV === 'production' ? 'off' : 'fail'),
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            apiBase: e.STRIPE_API_BASE,
          }
        : null,
  };
}

/** "MAX/SECONDS" → a limit; "off" → none. */
function parseRateLimit(setting: string): { max: number; windowMs: number } | null {
  if (setting === 'off') return null;
  const [max, seconds] = setting.split('/').map(Number);
  return { max: max as number, windowMs: (seconds as number) * 1000 };
}

/** "true"/"false" → boolean; "10.0.0.1,10.0.0.0/8" → those proxies, as Fastify takes them. */
function parseTrustProxy(setting: string): boolean | string {
  if (setting === 'true') return true;
  if (setting === 'false') return false;
  return setting;
}

/**
 * The names of every environment setting loadConfig reads (deploy/vitrine.env.example must list
 * them all; a test checks it).
 */
export const ENVIRONMENT_SETTINGS: readonly string[] = Object.keys(Environment.shape);
