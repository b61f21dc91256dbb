import {
  certificateFinding,
  clockSkewFinding,
  type DoctorFinding,
  freeDiskFinding,
  hlsCacheFinding,
  mailFinding,
  paymentsFinding,
  readinessFinding,
  redirectFinding,
  securityHeaderFindings,
} from '@vitrine/domain';
import {
  REALTIME_PATH,
  REALTIME_PROTOCOL_VERSION,
  type ServerStatus,
  type ShopEvent,
  type ShopEvents,
  subscriptionKey,
  WHIP_PATH,
} from '@vitrine/protocol';
import { type Answer, firstLiveQueryFrame, request, tcpReachable, tlsHandshake } from './probes.ts';

export interface DoctorOptions {
  /** The shop's address, e.g. https://shop.example. */
  url: string;
  /** The admin key, for the status read (payments, mail, disk); without it those are not checked. */
  adminKey: string | null;
  /** The store to query; by default the one the storefront page names. */
  store: string | null;
  /** The plain-HTTP port for the redirect check (80). */
  httpPort: number;
  /** The RTMP port; by default the one the status read reports, else 1935. */
  rtmpPort: number | null;
  timeoutMs: number;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const fail = (check: string, text: string, fix: string): DoctorFinding => ({
  check,
  status: 'fail',
  message: text,
  fix,
});
const warn = (check: string, text: string, fix: string): DoctorFinding => ({
  check,
  status: 'warn',
  message: text,
  fix,
});
const ok = (check: string, text: string): DoctorFinding => ({ check, status: 'ok', message: text });

/**
 * Checks a running install from outside, as its visitors, publishers and browsers reach it: TLS
 * and the HTTPS redirect, the storefront's security headers, /readyz and the clock, a live query
 * over the realtime WebSocket, the HLS caching of a show's playlist, the RTMP and WHIP ingests,
 * and, with the admin key, payments, mail and free disk. One finding per check, in this order.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorFinding[]> {
  const base = new URL(options.url);
  const origin = base.origin;
  const https = base.protocol === 'https:';
  const host = base.hostname.replace(/^\[|\]$/g, '');
  const findings: DoctorFinding[] = [];
  let insecure = false;
  const get = (path: string, init: Omit<Parameters<typeof request>[1], 'timeoutMs'> = {}) =>
    request(new URL(path, origin).toString(), { timeoutMs: options.timeoutMs, insecure, ...init });

  // TLS and the plain-HTTP redirect.
  if (!https) {
    findings.push(
      warn(
        'tls',
        `Not HTTPS: ${origin} is plain HTTP; shoppers' sessions and payments travel unencrypted.`,
        'Put the shop behind TLS: deploy/nginx/vitrine.conf with a certbot certificate.',
      ),
    );
    findings.push(
      warn(
        'redirect',
        'Not checked: the address is not HTTPS.',
        'Serve HTTPS and redirect plain HTTP to it.',
      ),
    );
  } else {
    const port = Number(base.port || 443);
    try {
      const handshake = await tlsHandshake(host, port, options.timeoutMs);
      if (!handshake.authorized) {
        insecure = true;
        findings.push(
          fail(
            'tls',
            `The certificate of ${base.host} is not trusted: ${handshake.reason ?? 'unknown reason'}.`,
            'Use a certificate from a trusted CA for this name, with its full chain (certbot: fullchain.pem).',
          ),
        );
      } else if (handshake.validTo === null) {
        findings.push(
          fail('tls', 'The server sent no certificate end date.', 'Check ssl_certificate in the nginx site.'),
        );
      } else findings.push(certificateFinding(handshake.validTo, Date.now()));
    } catch (error) {
      insecure = true;
      findings.push(
        fail(
          'tls',
          `No TLS handshake with ${base.host}: ${message(error)}.`,
          'Is nginx listening on 443 with ssl, and the firewall open?',
        ),
      );
    }
    const plain = new URL(origin);
    plain.protocol = 'http:';
    plain.port = options.httpPort === 80 ? '' : String(options.httpPort);
    const redirect = await request(plain.toString(), { timeoutMs: options.timeoutMs }).catch(() => null);
    findings.push(redirectFinding(redirect?.status ?? null, redirect?.headers.location ?? null, origin));
  }

  // The storefront page's security headers; it names the default store.
  let store = options.store;
  const page = await get('/').catch((error: unknown) => error);
  if (!(page instanceof Error) && (page as Answer).status === 200) {
    const answer = page as Answer;
    if (!String(answer.headers['content-type']).startsWith('text/html'))
      findings.push(
        fail(
          'headers',
          `The storefront / answered ${answer.headers['content-type']}, not a page.`,
          'Point the site at the Vitrine server.',
        ),
      );
    else findings.push(...securityHeaderFindings(answer.headers, https));
    store ??= /"defaultPageUid":"([^"\\]+)"/.exec(answer.body)?.[1] ?? null;
  } else {
    findings.push(
      fail(
        'headers',
        `The storefront / ${page instanceof Error ? `failed: ${page.message}` : `answered ${(page as Answer).status}`}.`,
        'Is the web app built (npm run build) and the proxy pointing at the server?',
      ),
    );
  }

  // Readiness, and the clock from the same answer's Date header.
  const ready = await get('/readyz').catch(() => null);
  let readyBody: unknown = null;
  try {
    readyBody = ready ? JSON.parse(ready.body) : null;
  } catch {
    readyBody = ready?.body ?? null;
  }
  findings.push(readinessFinding(ready?.status ?? null, readyBody));
  const serverDate = ready?.headers.date ? Date.parse(ready.headers.date) : Number.NaN;
  findings.push(
    ready && Number.isFinite(serverDate)
      ? clockSkewFinding(serverDate, ready.sentAt, ready.receivedAt)
      : warn('clock', 'Not checked: no Date header came back.', 'A proxy must pass the Date header.'),
  );

  // A live query over the realtime WebSocket, as every player opens one.
  if (!store) {
    findings.push(
      warn(
        'websocket',
        'Not checked: no store is known (the storefront names none).',
        'Pass --store <store id>.',
      ),
    );
  } else if (insecure) {
    findings.push(
      warn(
        'websocket',
        'Not checked: the certificate is not trusted (see tls), so no browser connects.',
        'Fix the certificate.',
      ),
    );
  } else {
    const socketUrl = new URL(`${REALTIME_PATH}?v=${REALTIME_PROTOCOL_VERSION}`, origin);
    socketUrl.protocol = https ? 'wss:' : 'ws:';
    const params = { pageUid: store };
    const subscribe = { id: subscriptionKey('liveEvents.shop', params), query: 'liveEvents.shop', params };
    try {
      const frame = await firstLiveQueryFrame(socketUrl.toString(), subscribe, options.timeoutMs);
      findings.push(
        frame.type === 'snapshot'
          ? ok(
              'websocket',
              `${socketUrl.host}${REALTIME_PATH}: the live query liveEvents.shop of ${store} answered (${frame.docs?.length ?? 0} shows).`,
            )
          : fail(
              'websocket',
              `The live query liveEvents.shop of ${store} was refused: ${frame.message}.`,
              'Is --store the right store id?',
            ),
      );
    } catch (error) {
      findings.push(
        fail(
          'websocket',
          `${socketUrl} : ${message(error)}.`,
          'The proxy must upgrade /realtime to a WebSocket (proxy_http_version 1.1; Upgrade and Connection headers).',
        ),
      );
    }
  }

  // HLS caching of a show's playlist, found through the public read of the store's shows.
  if (store) {
    const read = await get(
      `/reads/liveEvents.shop?params=${encodeURIComponent(JSON.stringify({ pageUid: store }))}`,
    ).catch(() => null);
    let shows: ShopEvents | null = null;
    try {
      shows = read?.status === 200 ? (JSON.parse(read.body) as ShopEvents) : null;
    } catch {
      shows = null;
    }
    // A show streamed through Vitrine plays /live/<event>/live.m3u8 (live) or replay.m3u8 (ended).
    const playlistOf = (show: ShopEvent) =>
      show.event.cdnMp4VideoUrl?.endsWith('.m3u8') ? show.event.cdnMp4VideoUrl : null;
    const live = shows?.live.find((event) => playlistOf(event));
    const ended = shows?.vod.find((event) => playlistOf(event));
    const chosen = live
      ? { event: live, kind: 'growing' as const }
      : ended
        ? { event: ended, kind: 'ended' as const }
        : null;
    if (!shows) {
      findings.push(
        fail(
          'hls',
          `The public read of the store's shows answered ${read?.status ?? 'nothing'}.`,
          'Is the store id right, and /reads/ passed to the server?',
        ),
      );
    } else if (!chosen) {
      findings.push(
        warn(
          'hls',
          'Not checked: no live show or replay streamed through Vitrine.',
          'Run again while a show is live, or after one has ended.',
        ),
      );
    } else {
      const path = playlistOf(chosen.event) as string;
      const playlist = await get(path).catch(() => null);
      findings.push(
        playlist?.status === 200
          ? hlsCacheFinding(chosen.kind, path, playlist.headers['cache-control'] ?? null)
          : fail(
              'hls',
              `${path} answered ${playlist?.status ?? 'nothing'}.`,
              'The proxy must pass /live/ to the server (deploy/nginx/vitrine.conf).',
            ),
      );
    }
  } else findings.push(warn('hls', 'Not checked: no store is known.', 'Pass --store <store id>.'));

  // The status read (admin key): payments, mail, free disk, the live ingest's ports.
  let status: ServerStatus | null = null;
  if (options.adminKey) {
    const answer = await get('/admin/status', {
      headers: { authorization: `Bearer ${options.adminKey}` },
    }).catch(() => null);
    if (answer?.status === 200) status = JSON.parse(answer.body) as ServerStatus;
    else
      findings.push(
        fail(
          'status',
          `GET /admin/status answered ${answer?.status ?? 'nothing'}${answer?.status === 401 ? ': the admin key was refused' : ''}.`,
          'Pass the server’s VITRINE_ADMIN_KEY with --admin-key.',
        ),
      );
  }

  // The ingests publishers use: RTMP's TCP port, and WHIP's endpoint.
  if (status && status.live.rtmpPort === null) {
    findings.push(
      warn(
        'rtmp',
        'The server runs no RTMP ingest (RTMP_PORT=off): OBS can only publish over WHIP.',
        'Set RTMP_PORT to offer RTMP.',
      ),
    );
  } else {
    const port = options.rtmpPort ?? status?.live.rtmpPort ?? 1935;
    findings.push(
      (await tcpReachable(host, port, options.timeoutMs))
        ? ok('rtmp', `RTMP port ${port} on ${host} accepts connections.`)
        : fail(
            'rtmp',
            `RTMP port ${port} on ${host} does not accept connections.`,
            `Open TCP port ${port} to the server (RTMP does not go through nginx), or pass --rtmp-port.`,
          ),
    );
  }
  const whipOptions = await get(WHIP_PATH, { method: 'OPTIONS' }).catch(() => null);
  const whipPost = await get(WHIP_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp' },
    body: 'v=0\r\n',
  }).catch(() => null);
  if (whipOptions?.status === 404 && whipPost?.status === 404)
    findings.push(
      warn('whip', 'The server offers no WHIP ingest (WHIP=off): browsers cannot go live.', 'Set WHIP=on.'),
    );
  else if (whipOptions && whipOptions.status < 300 && whipPost?.status === 401)
    findings.push(
      ok(
        'whip',
        `WHIP ${WHIP_PATH} answers OPTIONS (${whipOptions.status}) and refuses a publish without a stream key (401).`,
      ),
    );
  else
    findings.push(
      fail(
        'whip',
        `WHIP ${WHIP_PATH} answered OPTIONS ${whipOptions?.status ?? 'nothing'} and a keyless POST ${whipPost?.status ?? 'nothing'} (expected 2xx and 401).`,
        'The proxy must pass /whip to the server, OPTIONS included.',
      ),
    );

  if (status) {
    findings.push(paymentsFinding(status.payments));
    findings.push(mailFinding(status.mail.sending));
    for (const disk of status.disks)
      findings.push(freeDiskFinding(disk.purpose, disk.path, disk.freeBytes, disk.totalBytes));
    if (!status.live.ffmpeg)
      findings.push(
        warn(
          'ffmpeg',
          'The server found no ffmpeg 5 or later: live video is off.',
          'apt-get install ffmpeg (or set FFMPEG_PATH), then restart.',
        ),
      );
  } else if (!options.adminKey) {
    for (const check of ['payments', 'mail', 'disk'])
      findings.push(
        warn(
          check,
          'Not checked: only the server knows; pass its admin key.',
          'npm run doctor -- <url> --admin-key <VITRINE_ADMIN_KEY> (or set VITRINE_ADMIN_KEY).',
        ),
      );
  }
  return findings;
}
