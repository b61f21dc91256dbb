import { describe, expect, it } from 'vitest';
import {
  certificateFinding,
  clockSkewFinding,
  doctorExitCode,
  freeDiskFinding,
  hlsCacheFinding,
  mailFinding,
  maxAgeOf,
  paymentsFinding,
  readinessFinding,
  redirectFinding,
  securityHeaderFindings,
} from './doctor-rules.ts';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const DAY = 24 * 60 * 60_000;
const statuses = (findings: { check: string; status: string }[]) =>
  Object.fromEntries(findings.map((found) => [found.check, found.status]));

describe('certificateFinding', () => {
  it('is ok with weeks left, warns under 14 days, fails once expired, with a fix', () => {
    expect(certificateFinding(NOW + 60 * DAY, NOW)).toMatchObject({
      status: 'ok',
      message: expect.stringContaining('60 days'),
    });
    expect(certificateFinding(NOW + 13 * DAY, NOW)).toMatchObject({
      status: 'warn',
      fix: expect.stringContaining('certbot'),
    });
    expect(certificateFinding(NOW - 1, NOW)).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('expired'),
    });
    expect(certificateFinding(NOW + 60 * DAY, NOW).fix).toBeUndefined();
  });
});

describe('redirectFinding', () => {
  it('wants a permanent redirect to the HTTPS address', () => {
    expect(redirectFinding(301, 'https://shop.example/', 'https://shop.example').status).toBe('ok');
    expect(redirectFinding(308, 'https://shop.example/', 'https://shop.example').status).toBe('ok');
    expect(redirectFinding(302, 'https://shop.example/', 'https://shop.example').status).toBe('warn');
    expect(redirectFinding(200, null, 'https://shop.example').status).toBe('fail');
    expect(redirectFinding(301, 'http://elsewhere.example/', 'https://shop.example').status).toBe('fail');
    expect(redirectFinding(301, 'https://shop.example.evil/', 'https://shop.example').status).toBe('fail');
    expect(redirectFinding(null, null, 'https://shop.example').status).toBe('warn');
  });
});

describe('securityHeaderFindings', () => {
  const good = {
    'strict-transport-security': 'max-age=63072000',
    'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };

  it('passes the headers the server and the nginx site send', () => {
    expect(statuses(securityHeaderFindings(good, true))).toEqual({
      'header:hsts': 'ok',
      'header:csp': 'ok',
      'header:nosniff': 'ok',
      'header:frames': 'ok',
      'header:referrer': 'ok',
    });
  });

  it('fails what a proxy that strips headers leaves, and warns about weak values', () => {
    expect(statuses(securityHeaderFindings({}, true))).toEqual({
      'header:hsts': 'fail',
      'header:csp': 'fail',
      'header:nosniff': 'fail',
      'header:frames': 'fail',
      'header:referrer': 'warn',
    });
    const weak = securityHeaderFindings(
      {
        ...good,
        'strict-transport-security': 'max-age=300',
        'content-security-policy': "default-src 'self'",
        'x-frame-options': 'sameorigin',
        'referrer-policy': 'unsafe-url',
      },
      true,
    );
    expect(statuses(weak)).toMatchObject({
      'header:hsts': 'warn',
      'header:frames': 'ok',
      'header:referrer': 'warn',
    });
  });

  it('does not ask for HSTS over plain HTTP, and says so', () => {
    expect(securityHeaderFindings(good, false)[0]).toMatchObject({
      check: 'header:hsts',
      status: 'warn',
      message: expect.stringContaining('not HTTPS'),
    });
  });
});

describe('clockSkewFinding', () => {
  it('allows the Date header’s second and the trip, warns beyond 2 s, fails beyond 30 s', () => {
    // The Date header is floored to the second: 900 ms "behind" a quick request is no skew.
    expect(clockSkewFinding(NOW - 900, NOW, NOW + 50).status).toBe('ok');
    expect(clockSkewFinding(NOW + 1_500, NOW, NOW + 50).status).toBe('ok');
    expect(clockSkewFinding(NOW + 10_000, NOW, NOW + 50)).toMatchObject({
      status: 'warn',
      message: expect.stringContaining('ahead of'),
    });
    expect(clockSkewFinding(NOW - 120_000, NOW, NOW + 50)).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('timedatectl'),
    });
  });
});

describe('hlsCacheFinding', () => {
  it('wants a live playlist cached a second or two, and a replay for a while', () => {
    expect(hlsCacheFinding('growing', '/live/e/live.m3u8', 'public, max-age=1, s-maxage=1').status).toBe(
      'ok',
    );
    expect(hlsCacheFinding('growing', '/live/e/live.m3u8', 'public, max-age=60').status).toBe('fail');
    expect(hlsCacheFinding('growing', '/live/e/live.m3u8', 'no-store').status).toBe('warn');
    expect(hlsCacheFinding('growing', '/live/e/live.m3u8', null).status).toBe('warn');
    expect(
      hlsCacheFinding('ended', '/live/e/replay.m3u8', 'public, max-age=3600, s-maxage=86400').status,
    ).toBe('ok');
    expect(hlsCacheFinding('ended', '/live/e/replay.m3u8', 'public, max-age=1').status).toBe('warn');
  });

  it('reads max-age and s-maxage, not their look-alikes', () => {
    expect(maxAgeOf('public, max-age=1, s-maxage=5', 's-maxage')).toBe(5);
    expect(maxAgeOf('public, s-maxage=5')).toBeNull();
    expect(maxAgeOf('max-age="30"')).toBe(30);
  });
});

describe('readinessFinding, freeDiskFinding and the exit code', () => {
  it('reads /readyz', () => {
    expect(readinessFinding(200, { status: 'ready' }).status).toBe('ok');
    expect(readinessFinding(200, { status: 'degraded' }).status).toBe('warn');
    expect(readinessFinding(503, { status: 'draining' }).status).toBe('fail');
    expect(readinessFinding(null, null).status).toBe('fail');
  });

  it('fails under 1 GiB free, warns under 10 GiB or a tenth of the disk', () => {
    const GiB = 1024 ** 3;
    expect(freeDiskFinding('media', '/var/lib/vitrine/media', 0.5 * GiB, 100 * GiB).status).toBe('fail');
    expect(freeDiskFinding('media', '/m', 5 * GiB, 20 * GiB).status).toBe('warn');
    expect(freeDiskFinding('media', '/m', 50 * GiB, 1000 * GiB).status).toBe('warn');
    expect(freeDiskFinding('media', '/m', 50 * GiB, 100 * GiB)).toMatchObject({
      status: 'ok',
      message: expect.stringContaining('50.0 GiB free of 100.0 GiB'),
    });
  });

  it('exits 1 on any failure only', () => {
    expect(
      doctorExitCode([
        { check: 'a', status: 'ok', message: '' },
        { check: 'b', status: 'warn', message: '' },
      ]),
    ).toBe(0);
    expect(doctorExitCode([{ check: 'a', status: 'fail', message: '' }])).toBe(1);
  });
});

describe('paymentsFinding and mailFinding', () => {
  it('fails a shop that cannot take payments and warns about test money or kept mail', () => {
    expect(paymentsFinding([]).status).toBe('fail');
    expect(paymentsFinding(['test']).status).toBe('warn');
    expect(paymentsFinding(['stripe', 'test']).status).toBe('ok');
    expect(mailFinding(false)).toMatchObject({ status: 'warn', fix: expect.stringContaining('SMTP_URL') });
    expect(mailFinding(true).status).toBe('ok');
  });
});
