import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to the embedded mode: PGlite in ./.vitrine-data on port 3000', () => {
    const config = loadConfig({});
    expect(config.database).toEqual({ kind: 'pglite', dataDir: './.vitrine-data' });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.logLevel).toBe('info');
    expect(config.logPretty).toBe(false);
    expect(config.mainUrl).toBe('');
    expect(config.shopUrl).toBe('');
    // The first store made, looked up by the app: not a demo store that may not exist.
    expect(config.defaultPageUid).toBeNull();
    expect(config.seedDemo).toBe(true);
  });

  it('serves the demo retailer on PORT + 1 unless told otherwise', () => {
    expect(loadConfig({}).demoRetailerPort).toBe(3001);
    expect(loadConfig({ PORT: '8080' }).demoRetailerPort).toBe(8081);
    expect(loadConfig({ PORT: '0' }).demoRetailerPort).toBe(0);
    expect(loadConfig({ PORT: '65535' }).demoRetailerPort).toBe(0);
    expect(loadConfig({ VITRINE_DEMO_RETAILER_PORT: '4000' }).demoRetailerPort).toBe(4000);
    expect(loadConfig({ VITRINE_DEMO_RETAILER_PORT: '0' }).demoRetailerPort).toBe(0);
    expect(loadConfig({ VITRINE_DEMO_RETAILER_PORT: '-1' }).demoRetailerPort).toBeNull();
    expect(() => loadConfig({ VITRINE_DEMO_RETAILER_PORT: '-2' })).toThrow(/VITRINE_DEMO_RETAILER_PORT: /);
    expect(() => loadConfig({ VITRINE_DEMO_RETAILER_PORT: 'yes' })).toThrow(/VITRINE_DEMO_RETAILER_PORT: /);
  });

  it('generates a random admin key when none is set', () => {
    const a = loadConfig({});
    const b = loadConfig({});
    expect(a.adminKeyGenerated).toBe(true);
    expect(a.adminKey.length).toBeGreaterThanOrEqual(16);
    expect(a.adminKey).not.toBe(b.adminKey);
  });

  it('uses a given admin key, data dir and port', () => {
    const config = loadConfig({
      VITRINE_ADMIN_KEY: 'a-long-enough-admin-key',
      VITRINE_DATA_DIR: '/var/lib/vitrine',
      PORT: '8080',
      VITRINE_SEED_DEMO: '0',
      LOG_PRETTY: '1',
    });
    expect(config.adminKey).toBe('a-long-enough-admin-key');
    expect(config.adminKeyGenerated).toBe(false);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: '/var/lib/vitrine' });
    expect(config.port).toBe(8080);
    expect(config.seedDemo).toBe(false);
    expect(config.logPretty).toBe(true);
  });

  it('switches to PostgreSQL when DATABASE_URL is set', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://app@db.internal:5432/vitrine' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://app@db.internal:5432/vitrine',
    });
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://app@db/vitrine', VITRINE_DATA_DIR: '/ignored' }).database,
    ).toEqual({
      kind: 'postgres',
      url: 'postgresql://app@db/vitrine',
    });
  });

  it.each([
    ['abc', /PORT: /],
    ['70000', /PORT: /],
    ['-1', /PORT: /],
    ['80.5', /PORT: /],
  ])('rejects PORT=%s', (port, problem) => {
    expect(() => loadConfig({ PORT: port })).toThrow(problem);
  });

  it('rejects a short admin key', () => {
    expect(() => loadConfig({ VITRINE_ADMIN_KEY: 'short' })).toThrow(
      'Invalid configuration:\n  VITRINE_ADMIN_KEY: VITRINE_ADMIN_KEY must be at least 16 characters',
    );
  });

  it('rejects a DATABASE_URL that is not a postgres URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root@localhost/vitrine' })).toThrow(
      'Invalid configuration:\n  DATABASE_URL: DATABASE_URL must be a postgres:// URL',
    );
  });

  it('lists every problem in one error', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: '99999',
        VITRINE_ADMIN_KEY: 'short',
        DATABASE_URL: 'mysql://root@localhost/vitrine',
        LOG_LEVEL: 'loud',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    const lines = (error as Error).message.split('\n');
    expect(lines[0]).toBe('Invalid configuration:');
    const problems = lines.slice(1).map((line) => line.trim());
    expect(problems).toHaveLength(4);
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(
      ['DATABASE_URL', 'LOG_LEVEL', 'PORT', 'VITRINE_ADMIN_KEY'].sort(),
    );
    expect(problems).toContain('VITRINE_ADMIN_KEY: VITRINE_ADMIN_KEY must be at least 16 characters');
    expect(problems).toContain('DATABASE_URL: DATABASE_URL must be a postgres:// URL');
    expect(problems.find((p) => p.startsWith('PORT:'))).toMatch(/65535/);
  });

  // Bug (see report: config.ts line 5): z.coerce.number() turns an empty PORT ("PORT=" in an env
  // file) into 0, so the server silently listens on a random port. Remove `.fails` once fixed.
  it('logs readable lines on a terminal and JSON lines elsewhere, unless LOG_PRETTY says', () => {
    expect(loadConfig({}, true).logPretty).toBe(true);
    expect(loadConfig({}, false).logPretty).toBe(false);
    expect(loadConfig({ LOG_PRETTY: '0' }, true).logPretty).toBe(false);
    expect(loadConfig({ LOG_PRETTY: '1' }, false).logPretty).toBe(true);
  });

  it('does not turn an empty PORT into port 0', () => {
    let port: number | undefined;
    try {
      port = loadConfig({ PORT: '' }).port;
    } catch {
      port = undefined;
    }
    expect(port).not.toBe(0);
  });
});

describe('loadConfig: accounts and interaction', () => {
  it('limits comments to 5 per 10 s by default, takes MAX/SECONDS or off, and rejects anything else', () => {
    expect(loadConfig({}).commentRateLimit).toEqual({ max: 5, windowMs: 10_000 });
    expect(loadConfig({ VITRINE_COMMENT_RATE_LIMIT: '20/60' }).commentRateLimit).toEqual({
      max: 20,
      windowMs: 60_000,
    });
    expect(loadConfig({ VITRINE_COMMENT_RATE_LIMIT: 'off' }).commentRateLimit).toBeNull();
    for (const bad of ['0/10', '5', '5/0', 'none', '-1/5']) {
      expect(() => loadConfig({ VITRINE_COMMENT_RATE_LIMIT: bad }), bad).toThrow(
        'VITRINE_COMMENT_RATE_LIMIT: must be "MAX/SECONDS" (e.g. 5/10) or "off"',
      );
    }
  });

  it('reads social sign-in providers from JSON and names what is wrong', () => {
    expect(loadConfig({}).oidcProviders).toEqual([]);
    const provider = { id: 'google', name: 'Google', issuer: 'https://accounts.google.com', clientId: 'abc' };
    expect(loadConfig({ VITRINE_OIDC_PROVIDERS: JSON.stringify([provider]) }).oidcProviders).toEqual([
      { ...provider, scope: 'openid email profile' },
    ]);
    expect(() => loadConfig({ VITRINE_OIDC_PROVIDERS: '[{' })).toThrow(
      'VITRINE_OIDC_PROVIDERS: must be a JSON array',
    );
    expect(() =>
      loadConfig({ VITRINE_OIDC_PROVIDERS: JSON.stringify([{ ...provider, issuer: 'nope' }]) }),
    ).toThrow('VITRINE_OIDC_PROVIDERS.0.issuer');
  });

  it('reads the live profile from LIVE_PROFILE over the default for the cores, and names what is wrong', () => {
    expect(loadConfig({ LIVE_PROFILE: 'segment=2,renditions=720p30+360p30' }).live.profile).toEqual({
      segmentSeconds: 2,
      window: 6,
      renditions: [
        { name: '720p', height: 720, maxFps: 30, videoKbps: 2500 },
        { name: '360p', height: 360, maxFps: 30, videoKbps: 700 },
      ],
      lowLatency: true,
    });
    expect(loadConfig({}).live.profile.segmentSeconds).toBe(1);
    expect(() => loadConfig({ LIVE_PROFILE: 'window=1,renditions=360p+720p' })).toThrow(
      /LIVE_PROFILE: window must be a whole number of segments from 3 to 60 \(got "1"\); renditions go from the largest/,
    );
  });

  it("runs live video in a child media worker by default, inline or at a worker's URL with its token", () => {
    expect(loadConfig({}).live.media).toEqual({ kind: 'child' });
    expect(loadConfig({ LIVE_MEDIA: 'inline' }).live.media).toEqual({ kind: 'inline' });
    const token = 'a'.repeat(32);
    expect(loadConfig({ LIVE_MEDIA: 'http://10.0.0.5:8091/', LIVE_MEDIA_TOKEN: token }).live.media).toEqual({
      kind: 'remote',
      url: 'http://10.0.0.5:8091',
      token,
    });
    expect(() => loadConfig({ LIVE_MEDIA: 'http://10.0.0.5:8091' })).toThrow(/LIVE_MEDIA_TOKEN must be set/);
    expect(() => loadConfig({ LIVE_MEDIA: 'elsewhere' })).toThrow(/LIVE_MEDIA: must be "inline", "child"/);
    expect(() => loadConfig({ LIVE_MEDIA: 'inline', LIVE_MEDIA_TOKEN: 'short' })).toThrow(
      /LIVE_MEDIA_TOKEN: must be at least 32 characters/,
    );
    expect(loadConfig({ MEDIA_PORT: '9000', LIVE_MEDIA_TOKEN: token }).live.worker).toEqual({
      port: 9000,
      host: '127.0.0.1',
      token,
    });
  });

  it('offers test payments unless NODE_ENV is production or VITRINE_TEST_PAYMENTS says otherwise', () => {
    expect(loadConfig({}).testPayments).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).testPayments).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', VITRINE_TEST_PAYMENTS: 'on' }).testPayments).toBe(true);
    expect(loadConfig({ VITRINE_TEST_PAYMENTS: 'off' }).testPayments).toBe(false);
    expect(() => loadConfig({ VITRINE_TEST_PAYMENTS: 'yes' })).toThrow(/VITRINE_TEST_PAYMENTS/);
  });

  it('sets up Stripe only with both its secrets', () => {
    expect(loadConfig({}).stripe).toBeNull();
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }).stripe).toEqual({
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
      apiBase: 'https://api.stripe.com',
    });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/set together/);
  });
});
