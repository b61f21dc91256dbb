import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The most a packager may PUT in one file: a segment of a few seconds at a high bitrate. */
export const MAX_SEGMENT_BYTES = 64 * 1024 * 1024;
/** A playlist is text of a few lines per segment (ffmpeg lists only the last few). */
export const MAX_PLAYLIST_BYTES = 256 * 1024;

/**
 * The file names a packager run writes: `r<run>.m3u8`, `r<run>-init.mp4`, `r<run>-<n>.m4s`, those
 * of a further rendition after its name (`360p-r<run>.m3u8`).
 */
const PACKAGER_FILE_PATTERN = /^(?:[0-9]{3,4}p-)?r[0-9]{1,6}(\.m3u8|\.mp4|-init\.mp4|-[0-9]{5,9}\.m4s)$/;
/**
 * A run's fragmented MP4 stream (`r<run>.mp4`, `360p-r<run>.mp4`): one PUT for the whole run,
 * handed over chunk by chunk as ffmpeg writes it (the low-latency packager cuts its parts from it).
 */
const STREAM_FILE_PATTERN = /^(?:[0-9]{3,4}p-)?r[0-9]{1,6}\.mp4$/;
/** An upload path: `/<label>/<secret>/<file>`; the label (the show's id) only tells runs apart in `ps`. */
const UPLOAD_PATH_PATTERN = /^\/([A-Za-z0-9_-]{1,128})\/([A-Za-z0-9_-]{32,64})\/([^/]+)$/;

/** One packager run's upload place: where its ffmpeg PUTs, and what it handed over arrives. */
export interface UploadPlace {
  /** `http://127.0.0.1:<port>/<label>/<secret>/`: ffmpeg's output names follow it. */
  readonly baseUrl: string;
  /**
   * Resolves once no file is arriving here and none began for `quietMs`: after ffmpeg exited,
   * its last PUTs may still be in this process's socket buffers.
   */
  settled(quietMs: number): Promise<void>;
  /** Stops taking files for this place (later PUTs are answered 404). */
  close(): void;
}

/**
 * The loopback HTTP listener packagers hand their files to (`ffmpeg -method PUT`, as Owncast
 * does): each whole file arrives as one request body, so a segment's bytes are in hand the moment
 * ffmpeg closes it — nothing is watched, polled or read back. Each run PUTs under a random secret
 * of its own, known only to this process and its ffmpeg; anything else is answered 404, and a
 * body past its bound 413.
 */
export interface SegmentReceiver {
  /**
   * A new upload place; `onFile` gets each file PUT there, whole, in the order they completed;
   * `onStream` gets a run's stream (`r<run>.mp4`) as it arrives, then null when it ends.
   */
  open(
    label: string,
    onFile: (name: string, bytes: Buffer) => void,
    onStream?: (name: string, chunk: Buffer | null) => void,
  ): UploadPlace;
  close(): Promise<void>;
}

export async function startSegmentReceiver(options: { host?: string } = {}): Promise<SegmentReceiver> {
  const host = options.host ?? '127.0.0.1';
  interface Place {
    onFile: (name: string, bytes: Buffer) => void;
    onStream: ((name: string, chunk: Buffer | null) => void) | undefined;
    /** Requests in progress, and when the last one began. */
    arriving: number;
    lastBegun: number;
  }
  const places = new Map<string, Place>();

  const answer = (response: ServerResponse, status: number) => {
    response.writeHead(status, { 'content-length': '0', connection: status >= 400 ? 'close' : 'keep-alive' });
    response.end();
  };

  /** A run's stream: each chunk is handed on as it comes (a run lasts as long as the publish). */
  function receiveStream(
    request: IncomingMessage,
    response: ServerResponse,
    place: Place,
    secret: string,
    name: string,
  ) {
    place.arriving += 1;
    place.lastBegun = performance.now();
    let done = false;
    const finished = () => {
      if (done) return;
      done = true;
      place.arriving -= 1;
      places.get(secret)?.onStream?.(name, null);
    };
    request.on('data', (chunk: Buffer) => places.get(secret)?.onStream?.(name, chunk));
    request.once('end', () => {
      finished();
      answer(response, 201);
    });
    request.once('close', finished);
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const match = UPLOAD_PATH_PATTERN.exec(request.url ?? '');
    const secret = match?.[2];
    const name = match?.[3];
    const place = secret ? places.get(secret) : undefined;
    if (request.method !== 'PUT' || !place || !name || !PACKAGER_FILE_PATTERN.test(name)) {
      request.resume();
      return answer(response, 404);
    }
    if (STREAM_FILE_PATTERN.test(name))
      return receiveStream(request, response, place, secret as string, name);
    const limit = name.endsWith('.m3u8') ? MAX_PLAYLIST_BYTES : MAX_SEGMENT_BYTES;
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > limit) {
      answer(response, 413);
      request.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    let length = 0;
    let refused = false;
    place.arriving += 1;
    place.lastBegun = performance.now();
    let done = false;
    const finished = () => {
      if (!done) place.arriving -= 1;
      done = true;
    };
    request.once('close', finished);
    request.on('data', (chunk: Buffer) => {
      if (refused) return;
      length += chunk.length;
      if (length > limit) {
        // Never held beyond the bound: the run is cut off (its ffmpeg fails, and is restarted).
        refused = true;
        chunks.length = 0;
        answer(response, 413);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      finished();
      if (refused) return;
      answer(response, 201);
      // The place may have closed meanwhile (the run stopped): the file is nobody's then.
      places.get(secret as string)?.onFile(name, Buffer.concat(chunks, length));
    });
    request.on('error', () => {
      refused = true;
    });
  });
  // ffmpeg keeps a connection open between files only with -http_persistent; idle ones go.
  server.keepAliveTimeout = 5_000;
  // A run's stream is one request as long as the publish: no overall request timeout (only
  // this process and its ffmpeg know an upload place's secret).
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    open(label, onFile, onStream) {
      const secret = randomBytes(24).toString('base64url');
      const place: Place = { onFile, onStream, arriving: 0, lastBegun: performance.now() };
      places.set(secret, place);
      return {
        baseUrl: `${origin}/${label}/${secret}/`,
        async settled(quietMs) {
          while (place.arriving > 0 || performance.now() - place.lastBegun < quietMs) {
            await new Promise((resolve) => setTimeout(resolve, Math.max(10, quietMs / 4)));
          }
        },
        close: () => void places.delete(secret),
      };
    },
    async close() {
      places.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
