/**
 * The rules of `npm run doctor` (issue 28 item 11): what an install's answers, seen from outside,
 * must look like. Each rule turns what was measured into findings: ok, warn (works, but fix it)
 * or fail (broken or unsafe), each with a hint that says what to change.
 */
export type DoctorStatus = 'ok' | 'warn' | 'fail';

export interface DoctorFinding {
  /** The check's short name, e.g. `tls`, `header:hsts`. */
  check: string;
  status: DoctorStatus;
  message: string;
  /** What to change; absent when the finding is ok. */
  fix?: string;
}

const DAY_MS = 24 * 60 * 60_000;
/** A certificate closer than this to its end is not being renewed (certbot renews 30 days before). */
export const CERTIFICATE_WARN_DAYS = 14;
/** The HSTS max-age browsers' preload lists ask for at least: 180 days. */
export const HSTS_MIN_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;
/** Clock differences beyond these upset sign-in token expiry and the stream clock. */
export const CLOCK_SKEW_WARN_MS = 2_000;
export const CLOCK_SKEW_FAIL_MS = 30_000;
/** A growing (live) playlist cached longer than this shows viewers a stale live edge. */
export const LIVE_PLAYLIST_MAX_AGE_SECONDS = 2;
/** Free disk below these: a recording hour is ~160 MB, uploads and the database grow too. */
export const FREE_DISK_FAIL_BYTES = 1024 ** 3;
export const FREE_DISK_WARN_BYTES = 10 * 1024 ** 3;
export const FREE_DISK_WARN_SHARE = 0.1;

const finding = (check: string, status: DoctorStatus, message: string, fix?: string): DoctorFinding =>
  status === 'ok' || fix === undefined ? { check, status, message } : { check, status, message, fix };

/** The TLS certificate's remaining life, as of `now`. */
export function certificateFinding(validTo: number, now: number): DoctorFinding {
  const days = Math.floor((validTo - now) / DAY_MS);
  const until = new Date(validTo).toISOString().slice(0, 10);
  if (validTo <= now)
    return finding(
      'tls',
      'fail',
      `The certificate expired on ${until}.`,
      'Renew it (certbot renew) and reload nginx.',
    );
  if (days < CERTIFICATE_WARN_DAYS)
    return finding(
      'tls',
      'warn',
      `The certificate ends in ${days} days (${until}): its renewal is not happening.`,
      'Check the renewal (certbot renew --dry-run; systemctl list-timers certbot).',
    );
  return finding('tls', 'ok', `The certificate is trusted and valid until ${until} (${days} days).`);
}

/** The plain-HTTP address's answer: a permanent redirect to the same path over HTTPS. */
export function redirectFinding(
  status: number | null,
  location: string | null,
  httpsOrigin: string,
): DoctorFinding {
  if (status === null)
    return finding(
      'redirect',
      'warn',
      'Plain HTTP does not answer, so visitors typing the bare address get nothing.',
      'Listen on port 80 and redirect to HTTPS (deploy/nginx/vitrine.conf does).',
    );
  // The origin then a path: `https://shop.example.evil/` does not count as `https://shop.example`.
  const toHttps = location === httpsOrigin || (location?.startsWith(`${httpsOrigin}/`) ?? false);
  if (toHttps && (status === 301 || status === 308))
    return finding('redirect', 'ok', `http:// redirects permanently (${status}) to ${httpsOrigin}.`);
  if (toHttps)
    return finding(
      'redirect',
      'warn',
      `http:// redirects with ${status}, not a permanent 301/308.`,
      'Use `return 301 https://$host$request_uri;`.',
    );
  return finding(
    'redirect',
    'fail',
    `http:// answers ${status}${location ? ` to ${location}` : ''} instead of redirecting to HTTPS.`,
    'Redirect all plain HTTP to HTTPS: `return 301 https://$host$request_uri;`.',
  );
}

/** `max-age` of a Cache-Control or Strict-Transport-Security value, or null. */
export function maxAgeOf(value: string | null | undefined, directive = 'max-age'): number | null {
  const match = new RegExp(`(?:^|[;,\\s])${directive}\\s*=\\s*"?(\\d+)`, 'i').exec(value ?? '');
  return match ? Number(match[1]) : null;
}

/** A `;`-separated CSP's directive value, or null when the policy has no such directive. */
function cspDirective(policy: string, name: string): string | null {
  for (const part of policy.split(';')) {
    const [directive, ...values] = part.trim().split(/\s+/);
    if (directive?.toLowerCase() === name) return values.join(' ');
  }
  return null;
}

/**
 * The security headers of the storefront page (HTML): HSTS (over HTTPS), a Content-Security-
 * Policy, nosniff, a framing policy (CSP frame-ancestors or X-Frame-Options) and a referrer policy.
 * `headers` are the answer's, lower-case names.
 */
export function securityHeaderFindings(
  headers: Readonly<Record<string, string | undefined>>,
  https: boolean,
): DoctorFinding[] {
  const findings: DoctorFinding[] = [];
  const hsts = headers['strict-transport-security'];
  const hstsAge = maxAgeOf(hsts);
  if (!https)
    findings.push(
      finding('header:hsts', 'warn', 'Not checked: the address is not HTTPS.', 'Serve the shop over HTTPS.'),
    );
  else if (!hsts)
    findings.push(
      finding(
        'header:hsts',
        'fail',
        'No Strict-Transport-Security: a first visit over plain HTTP can be intercepted.',
        'add_header Strict-Transport-Security "max-age=63072000" always;',
      ),
    );
  else if (hstsAge === null || hstsAge < HSTS_MIN_MAX_AGE_SECONDS)
    findings.push(
      finding(
        'header:hsts',
        'warn',
        `Strict-Transport-Security max-age is ${hstsAge ?? 'missing'}, under 180 days.`,
        'Use max-age=63072000 (two years).',
      ),
    );
  else findings.push(finding('header:hsts', 'ok', `Strict-Transport-Security max-age=${hstsAge}.`));

  const csp = headers['content-security-policy'];
  findings.push(
    csp
      ? finding('header:csp', 'ok', 'Content-Security-Policy is set.')
      : finding(
          'header:csp',
          'fail',
          'No Content-Security-Policy on the storefront page.',
          'Let the server answer pages (it sets one); a proxy must not strip it.',
        ),
  );

  findings.push(
    headers['x-content-type-options']?.trim().toLowerCase() === 'nosniff'
      ? finding('header:nosniff', 'ok', 'X-Content-Type-Options: nosniff.')
      : finding(
          'header:nosniff',
          'fail',
          'X-Content-Type-Options is not nosniff: browsers may run uploads as scripts.',
          'A proxy must pass the server’s X-Content-Type-Options header.',
        ),
  );

  const ancestors = csp ? cspDirective(csp, 'frame-ancestors') : null;
  const frameOptions = headers['x-frame-options']?.trim().toUpperCase();
  findings.push(
    ancestors !== null || frameOptions === 'DENY' || frameOptions === 'SAMEORIGIN'
      ? finding(
          'header:frames',
          'ok',
          ancestors !== null
            ? `Framing limited: frame-ancestors ${ancestors}.`
            : `X-Frame-Options: ${frameOptions}.`,
        )
      : finding(
          'header:frames',
          'fail',
          'Any site may frame the storefront (no frame-ancestors, no X-Frame-Options): clickjacking.',
          'A proxy must pass the server’s CSP and X-Frame-Options headers.',
        ),
  );

  const referrer = headers['referrer-policy']?.trim().toLowerCase();
  findings.push(
    !referrer
      ? finding(
          'header:referrer',
          'warn',
          'No Referrer-Policy: the browser default applies.',
          'Referrer-Policy: strict-origin-when-cross-origin.',
        )
      : referrer
            .split(',')
            .some((policy) => ['unsafe-url', 'no-referrer-when-downgrade'].includes(policy.trim()))
        ? finding(
            'header:referrer',
            'warn',
            `Referrer-Policy ${referrer} sends full addresses (order and checkout links) to other sites.`,
            'Referrer-Policy: strict-origin-when-cross-origin.',
          )
        : finding('header:referrer', 'ok', `Referrer-Policy: ${referrer}.`),
  );
  return findings;
}

/** `/readyz`: 200 `ready`; 200 `degraded` still serves (the bus is down); anything else fails. */
export function readinessFinding(status: number | null, body: unknown): DoctorFinding {
  const state =
    body && typeof body === 'object' && 'status' in body
      ? String((body as { status: unknown }).status)
      : null;
  if (status === 200 && state === 'ready') return finding('readyz', 'ok', '/readyz: ready.');
  if (status === 200)
    return finding(
      'readyz',
      'warn',
      `/readyz: ${state ?? 'answered'} (${JSON.stringify(body)}).`,
      'See the server log: the change bus (Redis) is unreachable or the outbox is failing.',
    );
  return finding(
    'readyz',
    'fail',
    status === null ? '/readyz does not answer.' : `/readyz answered ${status}: ${JSON.stringify(body)}.`,
    'Is the server running (systemctl status vitrine) and the proxy pointing at its port?',
  );
}

/**
 * The server clock (the Date header, whole seconds) against this machine's, given when the request
 * left and its answer came: the Date header may be up to a second behind plus the trip.
 */
export function clockSkewFinding(serverDate: number, sentAt: number, receivedAt: number): DoctorFinding {
  const latest = receivedAt;
  const earliest = sentAt - 1_000;
  const skew = serverDate < earliest ? serverDate - earliest : serverDate > latest ? serverDate - latest : 0;
  const size = Math.abs(skew);
  const text = `${(size / 1000).toFixed(1)} s ${skew < 0 ? 'behind' : 'ahead of'} this machine`;
  if (size <= CLOCK_SKEW_WARN_MS)
    return finding(
      'clock',
      'ok',
      `The server clock is within ${CLOCK_SKEW_WARN_MS / 1000} s of this machine’s.`,
    );
  const fix = 'Synchronise the server clock (timedatectl set-ntp true), and this machine’s.';
  return size <= CLOCK_SKEW_FAIL_MS
    ? finding('clock', 'warn', `The server clock is ${text}.`, fix)
    : finding(
        'clock',
        'fail',
        `The server clock is ${text}: sign-ins expire wrongly and shows start off time.`,
        fix,
      );
}

/**
 * The Cache-Control of an HLS playlist as viewers (and a CDN) get it: a growing (live) one kept
 * at most a couple of seconds, yet cacheable (else every viewer reaches the server); an ended one
 * (a replay) cacheable for a while.
 */
export function hlsCacheFinding(
  kind: 'growing' | 'ended',
  url: string,
  cacheControl: string | null,
): DoctorFinding {
  const value = cacheControl ?? '';
  const maxAge = maxAgeOf(value, 's-maxage') ?? maxAgeOf(value);
  const uncacheable = /no-store|no-cache|private/i.test(value) || maxAge === null || maxAge === 0;
  const fix =
    'Let the server’s Cache-Control through the proxy (deploy/nginx/vitrine.conf’s /live/ location).';
  if (kind === 'growing') {
    if (!uncacheable && maxAge !== null && maxAge <= LIVE_PLAYLIST_MAX_AGE_SECONDS)
      return finding('hls', 'ok', `Live playlist ${url}: cached ${maxAge} s (${value}).`);
    if (uncacheable)
      return finding(
        'hls',
        'warn',
        `Live playlist ${url} is not cacheable (${value || 'no Cache-Control'}): every viewer reaches the server.`,
        fix,
      );
    return finding(
      'hls',
      'fail',
      `Live playlist ${url} is cached ${maxAge} s (${value}): viewers fall behind the live edge.`,
      fix,
    );
  }
  if (!uncacheable && maxAge !== null && maxAge >= 60)
    return finding('hls', 'ok', `Replay playlist ${url}: cached ${maxAge} s (${value}).`);
  return finding(
    'hls',
    'warn',
    `Replay playlist ${url} is cached ${uncacheable ? 'not at all' : `${maxAge} s`} (${value || 'no Cache-Control'}).`,
    fix,
  );
}

/** The free space of the disk under one of the server's folders. */
export function freeDiskFinding(
  purpose: string,
  path: string,
  freeBytes: number,
  totalBytes: number,
): DoctorFinding {
  const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  const text = `${gib(freeBytes)} free of ${gib(totalBytes)} under the ${purpose} folder ${path}`;
  const fix = 'Free space or grow the disk; old recordings can be moved to a bucket (VITRINE_S3_BUCKET).';
  if (freeBytes < FREE_DISK_FAIL_BYTES) return finding(`disk:${purpose}`, 'fail', `Only ${text}.`, fix);
  if (freeBytes < FREE_DISK_WARN_BYTES || freeBytes < totalBytes * FREE_DISK_WARN_SHARE)
    return finding(`disk:${purpose}`, 'warn', `Only ${text}.`, fix);
  return finding(`disk:${purpose}`, 'ok', `${text[0]?.toUpperCase()}${text.slice(1)}.`);
}

/** The exit status of a doctor run: 1 when anything failed. */
export const doctorExitCode = (findings: readonly DoctorFinding[]) =>
  findings.some((found) => found.status === 'fail') ? 1 : 0;

/** The payment providers a server offers (its status read): none fails, only test money warns. */
export function paymentsFinding(providers: readonly string[]): DoctorFinding {
  const fix = 'Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (docs/operations.md), then restart.';
  if (providers.includes('stripe')) return finding('payments', 'ok', `Payments: ${providers.join(', ')}.`);
  if (providers.length > 0)
    return finding('payments', 'warn', 'Only test payments are offered: no real money can be taken.', fix);
  return finding(
    'payments',
    'fail',
    'No payment provider is configured: the shop cannot take payments.',
    fix,
  );
}

/** Whether mail leaves the server: without SMTP, order mails and sign-in links stay in the outbox. */
export const mailFinding = (sending: boolean): DoctorFinding =>
  sending
    ? finding('mail', 'ok', 'Mail is sent through SMTP.')
    : finding(
        'mail',
        'warn',
        'Mail is kept in the outbox: no order mails, no sign-in or password reset links reach anyone.',
        'Set SMTP_URL (and MAIL_FROM), then restart.',
      );
