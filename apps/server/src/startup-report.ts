import type { Config } from './config.ts';
import type { FfmpegDiscovery } from './features/live/ffmpeg-binary.ts';

/**
 * What a started server runs with, in the operator's terms (issue 28 item 5): where it is reached,
 * where its data is, and what it cannot do yet (no payments, mail kept, no live video), each with
 * the setting that changes it. No secret is in it: no password of a URL, no key.
 */
export interface StartupReport {
  publicUrl: string;
  /** False when links (mails, printed links) fall back to the listen address. */
  publicUrlConfigured: boolean;
  database: { kind: 'pglite'; dir: string } | { kind: 'postgres'; host: string; database: string };
  bus: { kind: 'memory' } | { kind: 'redis'; host: string };
  mediaDir: string;
  liveDir: string;
  /** The payment providers offered; empty: no way to take payments. */
  payments: ('stripe' | 'test')[];
  mail: { kind: 'smtp'; host: string } | { kind: 'outbox' };
  ffmpeg: { available: true; path: string; version: string } | { available: false; missing: string };
  /** What the operator should act on, one sentence each. */
  warnings: string[];
}

/** host:port of a URL, without its user and password. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(unreadable URL)';
  }
}

export function startupReport(config: Config, ffmpeg: FfmpegDiscovery, listenAddress: string): StartupReport {
  const payments: StartupReport['payments'] = [
    ...(config.stripe ? (['stripe'] as const) : []),
    ...(config.testPayments ? (['test'] as const) : []),
  ];
  const warnings: string[] = [];
  if (!config.publicUrl)
    warnings.push(
      `VITRINE_PUBLIC_URL is not set: links in mails point at ${listenAddress}; set it to the address people reach this server at.`,
    );
  if (payments.length === 0)
    warnings.push(
      'No way to take payments: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (test payments are off in production).',
    );
  if (!config.mail.smtpUrl)
    warnings.push(
      'Mail is kept in the outbox, not sent: set SMTP_URL to send order mails and sign-in links.',
    );
  if (!ffmpeg.available) warnings.push(`Live video is off: ${ffmpeg.missing}`);
  const database: StartupReport['database'] =
    config.database.kind === 'pglite'
      ? { kind: 'pglite', dir: config.database.dataDir }
      : (() => {
          const url = new URL(config.database.url);
          return { kind: 'postgres', host: url.host, database: decodeURIComponent(url.pathname.slice(1)) };
        })();
  return {
    publicUrl: config.publicUrl ?? listenAddress,
    publicUrlConfigured: config.publicUrl !== null,
    database,
    bus: config.redisUrl ? { kind: 'redis', host: hostOf(config.redisUrl) } : { kind: 'memory' },
    mediaDir: config.mediaDir,
    liveDir: config.live.dir,
    payments,
    mail: config.mail.smtpUrl ? { kind: 'smtp', host: hostOf(config.mail.smtpUrl) } : { kind: 'outbox' },
    ffmpeg: ffmpeg.available
      ? { available: true, path: ffmpeg.path, version: ffmpeg.version }
      : { available: false, missing: ffmpeg.missing },
    warnings,
  };
}

/** The report as a block of lines for a person's terminal. */
export function startupReportText(report: StartupReport): string {
  const row = (label: string, value: string) => `  ${label.padEnd(12)}${value}\n`;
  const database =
    report.database.kind === 'pglite'
      ? `embedded PGlite in ${report.database.dir}`
      : `PostgreSQL ${report.database.database} on ${report.database.host}`;
  const payments = report.payments.length
    ? report.payments
        .map((provider) => (provider === 'stripe' ? 'Stripe' : 'test payments (no real money)'))
        .join(', ')
    : 'no way to take payments';
  return [
    '\n  Vitrine is running with\n',
    row(
      'Public URL',
      `${report.publicUrl}${report.publicUrlConfigured ? '' : '  (VITRINE_PUBLIC_URL not set)'}`,
    ),
    row('Database', database),
    row('Bus', report.bus.kind === 'redis' ? `Redis on ${report.bus.host}` : 'in this process (one node)'),
    row('Media', report.mediaDir),
    row('Recordings', report.liveDir),
    row('Payments', payments),
    row('Mail', report.mail.kind === 'smtp' ? `SMTP via ${report.mail.host}` : 'mail kept in the outbox'),
    row(
      'Live video',
      report.ffmpeg.available
        ? `ffmpeg ${report.ffmpeg.version} (${report.ffmpeg.path})`
        : 'off: no ffmpeg 5 or later',
    ),
    ...(report.warnings.length ? ['\n', ...report.warnings.map((warning) => `  ! ${warning}\n`)] : []),
  ].join('');
}
