/**
 * A load-generator process: opens viewer connections, waits for their snapshots, then records
 * for every comment each viewer receives the latency (receive time − send time carried in the
 * text `bench:<sentAtMs>:<n>`). Driven by run.ts over the IPC channel (see the message types).
 *
 * Two kinds of client, the same for both implementations:
 * - `lean` (default): every viewer is a `LeanWebSocket` (lean-websocket.ts) speaking the
 *   implementation's protocol directly — Vitrine's realtime frames, or Engine.IO 4 / Socket.IO 5
 *   packets for the baseline (lean-socket-io.ts: open, namespace connect, `join` with an ack,
 *   ping/pong, events). The
 *   frames a viewer sends are encoded once per process; the snapshot (or the join's ack) is
 *   recognised by its head — type and subscription id, or ack id — rather than parsed whole; every
 *   frame that carries comments is parsed whole, so the loss and duplicate checks are unchanged.
 * - `library`: Vitrine viewers are `ws` clients, Socket.IO viewers `socket.io-client` sockets,
 *   parsing every frame as an application would (the generator of earlier runs; heavier, see
 *   the README's "The load generator, not the server, bounded the connect time").
 */
import { REALTIME_PATH, REALTIME_PROTOCOL_VERSION, subscriptionKey } from '@vitrine/protocol';
import { io as socketIo } from 'socket.io-client';
import WebSocket from 'ws';
import { Histogram, type HistogramData } from './histogram.ts';
import { type SocketIoWire, socketIoHandlers, socketIoPackets, startsWith } from './lean-socket-io.ts';
import { clientFrame, type LeanHandlers, LeanWebSocket, upgradeRequest } from './lean-websocket.ts';
import { clock, sleep } from './proc.ts';

export type Impl = 'vitrine' | 'socket.io';
export type ClientKind = 'lean' | 'library';

export interface LoadgenTarget {
  /** Label of the server node ("A", "B"). */
  node: string;
  /** http://127.0.0.1:port */
  baseUrl: string;
  count: number;
}

export type ToLoadgen =
  | {
      type: 'start';
      impl: Impl;
      client: ClientKind;
      targets: LoadgenTarget[];
      /** Global index of this process's first connection, to spread source addresses. */
      firstIndex: number;
      spreadSourceAddresses: boolean;
      pageUid: string;
      campaignUid: string;
      /** Upper bound of the comment numbers n, for the per-viewer duplicate bitmaps. */
      maxComments: number;
      connectConcurrency: number;
      connectTimeoutMs: number;
      /**
       * Vitrine viewers also follow the show's products (which makes them count as its viewers)
       * and its `viewerCount`, as a player showing the count would.
       */
      presenceEventId: string | null;
    }
  | { type: 'begin' }
  /** How many viewers see `expected` as the show's viewer count. */
  | { type: 'viewer-count'; expected: number }
  /** `accepted`: the comment numbers whose POST answered 200 (see `count`). */
  | { type: 'poll'; accepted: number[] }
  /** `accepted`: the comment numbers n the server accepted, which every viewer should receive. */
  | { type: 'collect'; accepted: number[] }
  | { type: 'exit' };

export interface NodeStats {
  node: string;
  connections: number;
  /** Distinct (viewer, comment) deliveries of accepted comments. */
  received: number;
  /** Deliveries of comments whose POST did not answer 200 (e.g. timed out, yet went through). */
  receivedUnconfirmed: number;
  duplicates: number;
  /** Frames (WebSocket messages / Socket.IO events) that carried at least one comment. */
  frames: number;
  /** Viewers whose connection closed after they were ready. */
  disconnects: number;
  /** Viewers that received fewer distinct comments than the server accepted. */
  lossyViewers: number;
  /** Latency from the writer's send time (in the comment text) to receipt. */
  histogram: HistogramData;
  /** Latency from the comment's server time stamp (`doc.time`, whole ms) to receipt. */
  serverHistogram: HistogramData;
  /** Receive time of the last delivery (clock ms). */
  lastReceiveAt: number;
}

export type FromLoadgen =
  /** The process loaded and waits for `start`. */
  | { type: 'loaded' }
  | { type: 'progress'; ready: number }
  | {
      type: 'ready';
      ready: number;
      failed: number;
      errors: string[];
      ms: number;
      /** CPU this process used to open its viewers (user + system), ms. */
      cpuMs: number;
      /** RSS before opening the viewers and once they are ready. */
      rssBeforeBytes: number;
      rssBytes: number;
    }
  | {
      type: 'count';
      /** Deliveries of any benchmark comment, accepted or not (progress). */
      received: number;
      /** Deliveries of the accepted comments only (completeness: a comment whose POST timed out
       * but went through must not stand in for an accepted one still on its way). */
      receivedAccepted: number;
      disconnects: number;
    }
  | {
      type: 'viewer-count';
      /** Viewers whose last viewer count is the expected one. */
      seeingExpected: number;
      /** The lowest and highest count a viewer last saw (null: none got one). */
      min: number | null;
      max: number | null;
      /** viewerCount changes received since the last ask. */
      updates: number;
    }
  | {
      type: 'stats';
      nodes: NodeStats[];
      /** Deliveries per comment n (over this process's viewers). */
      perComment: number[];
      /** CPU use of this process between `begin` and `collect`, in % of one core. */
      cpuPercentWrite: number;
      rssBytes: number;
    };

interface Viewer {
  node: NodeState;
  ready: boolean;
  /** The show's viewer count as this viewer last heard it (presence mode). */
  viewerCount: number | null;
  seen: Uint8Array;
  close(): void;
}

interface NodeState {
  node: string;
  connections: number;
  received: number;
  duplicates: number;
  frames: number;
  disconnects: number;
  histogram: Histogram;
  serverHistogram: Histogram;
  lastReceiveAt: number;
}

/** Set bits per byte value. */
const BITS = Uint8Array.from({ length: 256 }, (_, byte) => {
  let bits = 0;
  for (let b = byte; b; b >>= 1) bits += b & 1;
  return bits;
});

const send = (message: FromLoadgen) => process.send?.(message);

let start: Extract<ToLoadgen, { type: 'start' }> | undefined;
const viewers: Viewer[] = [];
const nodes = new Map<string, NodeState>();
let perComment = new Uint32Array(0);
let cpuAtBegin: NodeJS.CpuUsage | null = null;
let wallAtBegin = 0;
let viewerCountUpdates = 0;

/** The `viewers` of a viewerCount document, if that is what it is. */
function viewersOf(doc: unknown): number | null {
  const viewers = (doc as { viewers?: unknown } | null)?.viewers;
  return typeof viewers === 'number' ? viewers : null;
}

/** Records one received comment text; ignores comments that are not the benchmark's. */
function record(
  viewer: Viewer,
  doc: { text?: unknown; time?: unknown } | undefined,
  receivedAt: number,
): boolean {
  const text = doc?.text;
  if (typeof text !== 'string' || !text.startsWith('bench:')) return false;
  const second = text.indexOf(':', 6);
  const sentAt = Number(text.slice(6, second));
  const n = Number(text.slice(second + 1));
  const state = viewer.node;
  if (!Number.isInteger(n) || n < 0 || n >= perComment.length) return false;
  const byte = n >> 3;
  const bit = 1 << (n & 7);
  if (viewer.seen[byte]! & bit) {
    state.duplicates++;
    return true;
  }
  viewer.seen[byte]! |= bit;
  perComment[n]!++;
  state.received++;
  state.histogram.record(receivedAt - sentAt);
  if (typeof doc?.time === 'number') state.serverHistogram.record(receivedAt - doc.time);
  if (receivedAt > state.lastReceiveAt) state.lastReceiveAt = receivedAt;
  return true;
}

function sourceAddress(index: number): string | undefined {
  if (!start?.spreadSourceAddresses) return undefined;
  // 16 loopback source addresses: 16 × ~28,000 ephemeral ports, so 50,000 viewers fit.
  return `127.0.0.${2 + (index % 16)}`;
}

interface VitrineFrame {
  type: string;
  id?: string;
  docs?: Array<{ doc?: unknown }>;
  changes?: Array<{ type: string; doc?: { text?: unknown; time?: unknown } }>;
  message?: string;
}

interface ViewerHooks {
  becameReady(): void;
  failed(error: Error): void;
}

/** The ids and frames every Vitrine viewer of this process uses, built once. */
let vitrineWire:
  | {
      commentsId: string;
      viewerCountId: string | null;
      /** Subscribe frames in the order a viewer sends them, masked, for the lean client. */
      subscribeFrames: Buffer[];
      /** How the comments snapshot frame begins: `{"type":"snapshot","id":<commentsId>,`. */
      snapshotHead: Buffer;
    }
  | undefined;

function vitrineWireOf() {
  if (vitrineWire) return vitrineWire;
  if (!start) throw new Error('not started');
  const params = { pageUid: start.pageUid, campaignUid: start.campaignUid };
  const commentsId = subscriptionKey('comments', params);
  const subscribes = [JSON.stringify({ type: 'subscribe', id: commentsId, query: 'comments', params })];
  let viewerCountId: string | null = null;
  if (start.presenceEventId) {
    const presenceParams = { eventId: start.presenceEventId };
    viewerCountId = subscriptionKey('viewerCount', presenceParams);
    for (const query of ['liveEventProducts', 'viewerCount'])
      subscribes.push(
        JSON.stringify({
          type: 'subscribe',
          id: subscriptionKey(query, presenceParams),
          query,
          params: presenceParams,
        }),
      );
  }
  vitrineWire = {
    commentsId,
    viewerCountId,
    subscribeFrames: subscribes.map((text) => clientFrame(text)),
    snapshotHead: Buffer.from(`{"type":"snapshot","id":${JSON.stringify(commentsId)},`),
  };
  return vitrineWire;
}

/** What a Vitrine viewer does with one parsed server frame. */
function vitrineMessage(viewer: Viewer, frame: VitrineFrame, receivedAt: number, hooks: ViewerHooks) {
  const { commentsId, viewerCountId } = vitrineWireOf();
  if (viewerCountId && frame.id === viewerCountId) {
    for (const entry of frame.docs ?? frame.changes ?? []) {
      const viewers = viewersOf(entry.doc);
      if (viewers === null) continue;
      viewer.viewerCount = viewers;
      if (frame.type === 'changes') viewerCountUpdates++;
    }
  } else if (frame.type === 'changes') {
    let carried = false;
    for (const change of frame.changes ?? [])
      if (change.type === 'added' && record(viewer, change.doc, receivedAt)) carried = true;
    if (carried) viewer.node.frames++;
  } else if (frame.type === 'snapshot' && frame.id === commentsId) {
    if (!viewer.ready) hooks.becameReady();
  } else if (frame.type === 'error') {
    hooks.failed(new Error(`server error frame: ${frame.message}`));
  }
}

/** Engine.IO 4 / Socket.IO 5 packets of the baseline's viewers, built once. */
let socketIoWire: SocketIoWire | undefined;

function socketIoWireOf(): SocketIoWire {
  if (!start) throw new Error('not started');
  socketIoWire ??= socketIoPackets(start.pageUid, start.campaignUid);
  return socketIoWire;
}

/** Upgrade requests per target, built once. */
const upgrades = new Map<string, { port: number; host: string; request: Buffer }>();

/**
 * Opens one viewer with the lean client. The snapshot / ack is recognised by its head (its
 * subscription id, or the join's ack id) and checked to be a whole message; frames carrying
 * comments are parsed whole, like the library clients do.
 */
function openLean(
  target: LoadgenTarget,
  viewer: Viewer,
  localAddress: string | undefined,
  hooks: ViewerHooks & { closed(): void },
): LeanWebSocket {
  if (!start) throw new Error('not started');
  const impl = start.impl;
  let upgrade = upgrades.get(target.baseUrl);
  if (!upgrade) {
    const url = new URL(target.baseUrl);
    const path =
      impl === 'vitrine'
        ? `${REALTIME_PATH}?v=${REALTIME_PROTOCOL_VERSION}`
        : '/socket.io/?EIO=4&transport=websocket';
    upgrade = {
      port: Number(url.port),
      host: url.hostname,
      request: upgradeRequest(url.hostname, Number(url.port), path),
    };
    upgrades.set(target.baseUrl, upgrade);
  }
  const handlers: LeanHandlers =
    impl === 'vitrine'
      ? {
          open(socket) {
            for (const frame of vitrineWireOf().subscribeFrames) socket.send(frame);
          },
          message(_socket, data) {
            const receivedAt = clock();
            if (
              !viewer.ready &&
              startsWith(data, vitrineWireOf().snapshotHead) &&
              data[data.length - 1] === 0x7d
            )
              hooks.becameReady();
            else vitrineMessage(viewer, JSON.parse(data.toString()) as VitrineFrame, receivedAt, hooks);
          },
          close(_socket, reason) {
            if (reason && !viewer.ready) hooks.failed(new Error(reason));
            else hooks.closed();
          },
        }
      : socketIoHandlers(
          socketIoWireOf(),
          {
            isReady: () => viewer.ready,
            becameReady: hooks.becameReady,
            failed: hooks.failed,
            closed: hooks.closed,
            comment(doc, receivedAt) {
              if (record(viewer, doc, receivedAt)) viewer.node.frames++;
            },
          },
          clock,
        );
  return new LeanWebSocket(upgrade.port, upgrade.host, upgrade.request, handlers, localAddress);
}

/** Opens one viewer and resolves once it has its snapshot (or ack); rejects on failure. */
function openViewer(target: LoadgenTarget, node: NodeState, index: number): Promise<Viewer> {
  if (!start) throw new Error('not started');
  const { impl, pageUid, campaignUid, maxComments, connectTimeoutMs, presenceEventId } = start;
  const viewer: Viewer = {
    node,
    ready: false,
    viewerCount: null,
    seen: new Uint8Array(Math.ceil(maxComments / 8)),
    close() {},
  };
  const localAddress = sourceAddress(index);
  return new Promise<Viewer>((resolve, reject) => {
    const timer = setTimeout(() => {
      viewer.close();
      reject(new Error(`no snapshot within ${connectTimeoutMs} ms`));
    }, connectTimeoutMs);
    const becameReady = () => {
      clearTimeout(timer);
      viewer.ready = true;
      resolve(viewer);
    };
    const failed = (error: Error) => {
      clearTimeout(timer);
      viewer.close();
      reject(error);
    };
    const closed = () => {
      if (viewer.ready) node.disconnects++;
      else failed(new Error('closed before its snapshot'));
    };

    if (start?.client === 'lean') {
      const socket = openLean(target, viewer, localAddress, { becameReady, failed, closed });
      viewer.close = () => socket.terminate();
    } else if (impl === 'vitrine') {
      const url = `${target.baseUrl.replace(/^http/, 'ws')}${REALTIME_PATH}?v=${REALTIME_PROTOCOL_VERSION}`;
      const socket = new WebSocket(url, {
        perMessageDeflate: false,
        ...(localAddress ? { localAddress } : {}),
      });
      viewer.close = () => socket.terminate();
      const params = { pageUid, campaignUid };
      const commentsId = subscriptionKey('comments', params);
      const presenceParams = presenceEventId ? { eventId: presenceEventId } : null;
      const viewerCountId = presenceParams ? subscriptionKey('viewerCount', presenceParams) : null;
      socket.on('open', () => {
        socket.send(JSON.stringify({ type: 'subscribe', id: commentsId, query: 'comments', params }));
        if (!presenceParams || !viewerCountId) return;
        socket.send(
          JSON.stringify({
            type: 'subscribe',
            id: subscriptionKey('liveEventProducts', presenceParams),
            query: 'liveEventProducts',
            params: presenceParams,
          }),
        );
        socket.send(
          JSON.stringify({
            type: 'subscribe',
            id: viewerCountId,
            query: 'viewerCount',
            params: presenceParams,
          }),
        );
      });
      socket.on('message', (data: Buffer) =>
        vitrineMessage(viewer, JSON.parse(data.toString()) as VitrineFrame, clock(), { becameReady, failed }),
      );
      socket.on('error', (error) => {
        if (!viewer.ready) failed(error);
      });
      socket.on('close', closed);
    } else {
      // The baseline server disables permessage-deflate, so no compression is negotiated.
      // `localAddress` reaches the underlying `ws` client (engine.io-client passes it on).
      const options: Parameters<typeof socketIo>[1] & { localAddress?: string } = {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        timeout: connectTimeoutMs,
        ...(localAddress ? { localAddress } : {}),
      };
      const socket = socketIo(target.baseUrl, options);
      viewer.close = () => socket.disconnect();
      socket.on('connect', () => socket.emit('join', { pageUid, campaignUid }, () => becameReady()));
      socket.on('comment', (doc: { text?: unknown; time?: unknown } | undefined) => {
        if (record(viewer, doc, clock())) node.frames++;
      });
      socket.on('connect_error', (error) => failed(error));
      socket.on('disconnect', closed);
    }
  });
}

async function connectAll() {
  if (!start) return;
  const began = performance.now();
  const cpuBefore = process.cpuUsage();
  const rssBeforeBytes = process.memoryUsage.rss();
  const jobs: Array<{ target: LoadgenTarget; node: NodeState; index: number }> = [];
  let index = start.firstIndex;
  for (const target of start.targets) {
    const node: NodeState = {
      node: target.node,
      connections: target.count,
      received: 0,
      duplicates: 0,
      frames: 0,
      disconnects: 0,
      histogram: new Histogram(),
      serverHistogram: new Histogram(),
      lastReceiveAt: 0,
    };
    nodes.set(target.node, node);
    for (let i = 0; i < target.count; i++) jobs.push({ target, node, index: index++ });
  }
  // Interleave the nodes so both fill at the same pace.
  jobs.sort((a, b) => a.index - b.index);
  let next = 0;
  let failed = 0;
  const errors: string[] = [];
  let lastProgress = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      let attempt = 0;
      for (;;) {
        try {
          viewers.push(await openViewer(job.target, job.node, job.index));
          break;
        } catch (error) {
          // A few retries absorb accept-queue overflows while thousands connect at once.
          if (++attempt < 3) {
            await sleep(250 * attempt);
            continue;
          }
          failed++;
          if (errors.length < 5) errors.push(error instanceof Error ? error.message : String(error));
          break;
        }
      }
      if (viewers.length - lastProgress >= 1000) {
        lastProgress = viewers.length;
        send({ type: 'progress', ready: viewers.length });
      }
    }
  };
  await Promise.all(Array.from({ length: start.connectConcurrency }, worker));
  const cpu = process.cpuUsage(cpuBefore);
  send({
    type: 'ready',
    ready: viewers.length,
    failed,
    errors,
    ms: Math.round(performance.now() - began),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    rssBeforeBytes,
    rssBytes: process.memoryUsage.rss(),
  });
}

function totals() {
  let received = 0;
  let disconnects = 0;
  for (const node of nodes.values()) {
    received += node.received;
    disconnects += node.disconnects;
  }
  return { received, disconnects };
}

process.on('message', (message: ToLoadgen) => {
  switch (message.type) {
    case 'start':
      start = message;
      perComment = new Uint32Array(message.maxComments);
      void connectAll();
      return;
    case 'begin':
      cpuAtBegin = process.cpuUsage();
      wallAtBegin = performance.now();
      return;
    case 'poll': {
      let receivedAccepted = 0;
      for (const n of message.accepted) receivedAccepted += perComment[n] ?? 0;
      send({ type: 'count', ...totals(), receivedAccepted });
      return;
    }
    case 'viewer-count': {
      let seeingExpected = 0;
      let min: number | null = null;
      let max: number | null = null;
      for (const viewer of viewers) {
        const count = viewer.viewerCount;
        if (count === null) continue;
        if (count === message.expected) seeingExpected++;
        min = min === null ? count : Math.min(min, count);
        max = max === null ? count : Math.max(max, count);
      }
      send({ type: 'viewer-count', seeingExpected, min, max, updates: viewerCountUpdates });
      viewerCountUpdates = 0;
      return;
    }
    case 'collect': {
      const cpu = process.cpuUsage(cpuAtBegin ?? undefined);
      const wallMs = performance.now() - wallAtBegin;
      const accepted = new Uint8Array(Math.ceil(perComment.length / 8));
      for (const n of message.accepted) accepted[n >> 3]! |= 1 << (n & 7);
      const lossy = new Map<NodeState, number>();
      const receivedAccepted = new Map<NodeState, number>();
      for (const viewer of viewers) {
        let count = 0;
        for (let i = 0; i < accepted.length; i++) count += BITS[viewer.seen[i]! & accepted[i]!]!;
        receivedAccepted.set(viewer.node, (receivedAccepted.get(viewer.node) ?? 0) + count);
        if (count < message.accepted.length) lossy.set(viewer.node, (lossy.get(viewer.node) ?? 0) + 1);
      }
      send({
        type: 'stats',
        nodes: [...nodes.values()].map((node) => ({
          node: node.node,
          connections: node.connections,
          received: receivedAccepted.get(node) ?? 0,
          receivedUnconfirmed: node.received - (receivedAccepted.get(node) ?? 0),
          duplicates: node.duplicates,
          frames: node.frames,
          disconnects: node.disconnects,
          lossyViewers: lossy.get(node) ?? 0,
          histogram: node.histogram.toData(),
          serverHistogram: node.serverHistogram.toData(),
          lastReceiveAt: node.lastReceiveAt,
        })),
        perComment: [...perComment],
        cpuPercentWrite: wallMs > 0 ? Math.round(((cpu.user + cpu.system) / 1000 / wallMs) * 1000) / 10 : 0,
        rssBytes: process.memoryUsage.rss(),
      });
      return;
    }
    case 'exit':
      for (const viewer of viewers) viewer.close();
      setTimeout(() => process.exit(0), 200);
      return;
  }
});

// The benchmark went away: nothing left to measure.
process.on('disconnect', () => process.exit(0));
send({ type: 'loaded' });
