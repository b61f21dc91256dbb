import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback RTSP server of one publish that ffmpeg reads the publisher's RTP from
 * (`-rtsp_transport tcp -i rtsp://127.0.0.1:<port>/<secret>/<run>`), interleaved on the TCP
 * connection ffmpeg opens (RFC 2326 §10.12). The server listens before ffmpeg starts, so:
 * - ffmpeg's PLAY is its own readiness signal: nothing is sent before it, nothing after it is lost
 *   (TCP), no port of ffmpeg's has to be watched for;
 * - the end of the publish is the end of the connection: ffmpeg reads EOF, closes its last segment
 *   and exits;
 * - a run fed nothing for `idleMs` after its PLAY (no keyframe came, ffmpeg stopped reading) is
 *   ended the same way, so its ffmpeg exits instead of hanging on a silent input. (ffmpeg's own
 *   `-timeout`, a little longer, is the backstop for when this process cannot: ffmpeg 5.1 then
 *   waits it out once more for each frame its decoder still holds, so it is no first resort.)
 * Only the URL with the publish's secret is served (any local process can connect to a loopback
 * port), and only the latest run's: an earlier run's connection is closed when the next opens.
 */
export interface RtspFeed {
  /** The URL one ffmpeg run reads (a new run id each time, so that a late run cannot take over). */
  runUrl(run: string): string;
  /**
   * The run now fed: an earlier run's connection is closed. `onPlay` is called once its ffmpeg
   * asked to PLAY (every stream set up), from when what is sent reaches it.
   */
  feed(run: string, onPlay: () => void): void;
  /** Sends an RTP packet of a stream (0: video, 1: audio) to the playing run; false when dropped. */
  send(stream: number, packet: Uint8Array): boolean;
  /** Ends the fed run's connection (its ffmpeg reads EOF); a later run is fed again. */
  end(): void;
  /** Ends every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * Beyond this many bytes queued on ffmpeg's connection (ffmpeg fell behind), packets are dropped,
 * as the kernel dropped what a UDP socket's buffer did not hold: the live edge does not drift away.
 */
const MAX_QUEUED_BYTES = 1024 * 1024;
/** How long ffmpeg gets to hang up after the feed ended, before its connection is destroyed. */
const CLOSE_GRACE_MS = 10_000;
/** A connection that has not asked to PLAY this long after it opened is closed (not ffmpeg's). */
const HANDSHAKE_MS = 10_000;
/** An RTSP request's head larger than this is no ffmpeg's: the connection is closed. */
const MAX_REQUEST_BYTES = 16 * 1024;

export async function openRtspFeed(options: {
  /** The SDP of the streams, each `a=control:` one of `controls`: ffmpeg sets each up. */
  describe: (controls: string[]) => string;
  streams: number;
  /** A playing run sent nothing for this long is ended. */
  idleMs: number;
}): Promise<RtspFeed> {
  const { describe, streams } = options;
  const secret = randomBytes(12).toString('hex');
  const controls = Array.from({ length: streams }, (_, index) => `stream=${index}`);
  let current: {
    run: string;
    onPlay: () => void;
    socket: Socket | null;
    /** The interleaved channel of each stream's RTP, as SETUP chose it. */
    channels: (number | undefined)[];
    playing: boolean;
    /** Ends the connection when nothing was sent for `idleMs` (refreshed by each packet). */
    idle: NodeJS.Timeout | null;
  } | null = null;
  const endCurrent = () => {
    if (current?.idle) clearTimeout(current.idle);
    current?.socket?.end();
    current = null;
  };
  const sockets = new Set<Socket>();

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.setTimeout(HANDSHAKE_MS, () => socket.destroy());
    socket.on('error', () => {
      // ffmpeg went away: its run is over (the packager restarts it).
    });
    socket.on('close', () => {
      sockets.delete(socket);
      if (current?.socket === socket) {
        if (current.idle) clearTimeout(current.idle);
        current.socket = null;
        current.playing = false;
      }
    });
    let pending: Buffer = Buffer.alloc(0);
    let session: string | null = null;
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (pending.length === 0) return;
        if (pending[0] === 0x24) {
          // ffmpeg's RTCP receiver reports, interleaved: nothing to do with them.
          if (pending.length < 4) return;
          const size = 4 + pending.readUInt16BE(2);
          if (pending.length < size) return;
          pending = pending.subarray(size);
          continue;
        }
        const headEnd = pending.indexOf('\r\n\r\n');
        if (headEnd < 0) {
          if (pending.length > MAX_REQUEST_BYTES) socket.destroy();
          return;
        }
        const head = pending.subarray(0, headEnd).toString('latin1');
        const headers = new Map<string, string>();
        const [requestLine = '', ...lines] = head.split('\r\n');
        for (const line of lines) {
          const colon = line.indexOf(':');
          if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
        }
        const bodySize = Number.parseInt(headers.get('content-length') ?? '0', 10) || 0;
        if (pending.length < headEnd + 4 + bodySize) return;
        pending = pending.subarray(headEnd + 4 + bodySize);
        const [method = '', url = ''] = requestLine.split(' ');
        answer(method, url, headers);
      }
    });

    const reply = (cseq: string | undefined, status: string, headers: string[] = [], body = '') => {
      const lines = [`RTSP/1.0 ${status}`, `CSeq: ${cseq ?? '0'}`, ...headers];
      if (session) lines.push(`Session: ${session}`);
      if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
    };

    function answer(method: string, url: string, headers: Map<string, string>) {
      const cseq = headers.get('cseq');
      const path = (() => {
        try {
          return new URL(url).pathname;
        } catch {
          return '';
        }
      })();
      const base = `/${secret}/${current?.run ?? ''}`;
      const run = current;
      if (method === 'OPTIONS')
        return reply(cseq, '200 OK', ['Public: OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN, GET_PARAMETER']);
      if (method === 'GET_PARAMETER' || method === 'SET_PARAMETER') return reply(cseq, '200 OK');
      if (method === 'TEARDOWN') {
        reply(cseq, '200 OK');
        socket.end();
        return;
      }
      // Only the run being fed is served, and only on one connection.
      const ours = path === base || path.startsWith(`${base}/`);
      if (!run || !ours || (run.socket && run.socket !== socket)) {
        reply(cseq, '404 Not Found');
        socket.end();
        return;
      }
      if (method === 'DESCRIBE') {
        return reply(
          cseq,
          '200 OK',
          [`Content-Base: ${url.replace(/\/?$/, '/')}`, 'Content-Type: application/sdp'],
          describe(controls),
        );
      }
      if (method === 'SETUP') {
        const stream = controls.findIndex((control) => path.endsWith(`/${control}`));
        const interleaved = /interleaved=(\d+)(?:-(\d+))?/.exec(headers.get('transport') ?? '');
        if (stream < 0 || !interleaved) return reply(cseq, '461 Unsupported Transport');
        const rtp = Number(interleaved[1]);
        run.socket = socket;
        run.channels[stream] = rtp;
        session ??= randomBytes(8).toString('hex');
        return reply(cseq, '200 OK', [
          `Transport: RTP/AVP/TCP;unicast;interleaved=${rtp}-${interleaved[2] ?? rtp + 1}`,
        ]);
      }
      if (method === 'PLAY') {
        if (run.socket !== socket || run.channels.filter((channel) => channel !== undefined).length < streams)
          return reply(cseq, '455 Method Not Valid in This State');
        reply(cseq, '200 OK', ['Range: npt=0.000-']);
        socket.setTimeout(0);
        if (!run.playing) {
          run.playing = true;
          run.idle = setTimeout(() => socket.end(), options.idleMs);
          run.onPlay();
        }
        return;
      }
      reply(cseq, '501 Not Implemented');
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    runUrl: (run) => `rtsp://127.0.0.1:${port}/${secret}/${run}`,
    feed(run, onPlay) {
      endCurrent();
      current = { run, onPlay, socket: null, channels: [], playing: false, idle: null };
    },
    send(stream, packet) {
      const run = current;
      const channel = run?.channels[stream];
      if (!run?.playing || !run.socket || channel === undefined || packet.length > 0xffff) return false;
      if (run.socket.writableLength > MAX_QUEUED_BYTES) return false;
      const frame = Buffer.allocUnsafe(4);
      frame[0] = 0x24;
      frame[1] = channel;
      frame.writeUInt16BE(packet.length, 2);
      run.socket.cork();
      run.socket.write(frame);
      run.socket.write(packet);
      run.socket.uncork();
      run.idle?.refresh();
      return true;
    },
    end: endCurrent,
    async close() {
      endCurrent();
      server.close();
      for (const socket of sockets) {
        socket.end();
        // An ffmpeg that does not hang up after EOF is not waited for.
        setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
      }
    },
  };
}
