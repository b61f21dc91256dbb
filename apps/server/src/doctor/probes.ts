import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';

/** An HTTP answer as the doctor reads it: status, lower-case headers, the body as text, when. */
export interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
  sentAt: number;
  receivedAt: number;
}

/**
 * One HTTP(S) request, never following redirects (the doctor checks them). `insecure` skips the
 * certificate check: once the TLS check has failed on it, the other checks still see the server.
 */
export function request(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    insecure?: boolean;
    timeoutMs: number;
  },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sentAt = Date.now();
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const outgoing = client.request(
      target,
      {
        method: options.method ?? 'GET',
        headers: { 'user-agent': 'vitrine-doctor', ...options.headers },
        timeout: options.timeoutMs,
        ...(target.protocol === 'https:' ? { rejectUnauthorized: !options.insecure } : {}),
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const headers: Record<string, string | undefined> = {};
          for (const [name, value] of Object.entries(incoming.headers))
            headers[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({
            status: incoming.statusCode ?? 0,
            headers,
            body: Buffer.concat(chunks).toString('utf8'),
            sentAt,
            receivedAt: Date.now(),
          });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** What a TLS handshake showed: whether the chain is trusted for the name, and the certificate's end. */
export interface TlsOutcome {
  authorized: boolean;
  /** Why the chain is not trusted (Node's reason and code), when it is not. */
  reason: string | null;
  validTo: number | null;
}

/** What OpenSSL's verification codes mean to an operator. */
const TRUST_PROBLEMS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'a self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'a self-signed certificate in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the chain is incomplete (no intermediate certificate)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'an issuer this machine does not trust, or an incomplete chain',
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not valid yet',
};

export function tlsHandshake(host: string, port: number, timeoutMs: number): Promise<TlsOutcome> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host,
      port,
      servername: net.isIP(host) ? undefined : host,
      // Trust is judged below, so the certificate can still be read when it is not trusted.
      rejectUnauthorized: false,
      timeout: timeoutMs,
    });
    socket.once('secureConnect', () => {
      const certificate = socket.getPeerCertificate();
      // Trusted chain first, then the name: Node checks the name only when it rejects unauthorized.
      const chainError = socket.authorizationError as Error | string | null | undefined;
      const nameError = chainError ? undefined : tls.checkServerIdentity(host, certificate);
      const code = chainError ? (typeof chainError === 'string' ? chainError : chainError.message) : null;
      const reason = code
        ? `${TRUST_PROBLEMS[code] ?? code} (${code})`
        : nameError
          ? `it is for another name (${nameError.message})`
          : null;
      resolve({
        authorized: reason === null,
        reason,
        validTo: certificate?.valid_to ? Date.parse(certificate.valid_to) : null,
      });
      socket.end();
    });
    socket.once('timeout', () => socket.destroy(new Error(`no TLS handshake within ${timeoutMs} ms`)));
    socket.once('error', reject);
  });
}

/** Whether a TCP connection to host:port opens within the time. */
export function tcpReachable(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Opens the realtime socket, subscribes to one live query and waits for its first frame for that
 * subscription: the snapshot (answered) or an error frame. Rejects when the socket fails or nothing
 * comes in time.
 */
export function firstLiveQueryFrame(
  socketUrl: string,
  subscribe: { id: string; query: string; params: unknown },
  timeoutMs: number,
): Promise<{ type: string; docs?: unknown[]; message?: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(socketUrl);
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`no answer to the subscription within ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      socket.close();
      outcome();
    };
    socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'subscribe', ...subscribe })));
    socket.addEventListener('message', (event) => {
      let frame: { type?: string; id?: string; docs?: unknown[]; message?: string };
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (
        (frame.type === 'snapshot' || frame.type === 'error') &&
        (frame.id === subscribe.id || frame.id === '')
      )
        finish(() => resolve({ type: frame.type as string, docs: frame.docs, message: frame.message }));
    });
    socket.addEventListener('error', () => finish(() => reject(new Error('the WebSocket failed to open'))));
    socket.addEventListener('close', (event) =>
      finish(() =>
        reject(new Error(`the WebSocket closed (${event.code}${event.reason ? ` ${event.reason}` : ''})`)),
      ),
    );
  });
}
