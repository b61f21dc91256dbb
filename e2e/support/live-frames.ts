import {
  type LiveQueryName,
  type LiveQueryParamsOf,
  REALTIME_PATH,
  type ServerFrame,
  subscriptionKey,
} from '@vitrine/protocol';
import type { Page } from 'playwright-core';

/**
 * The realtime frames a page receives, read off its WebSocket. A test waits for the frame that
 * proves the server has done something (a subscription answered, a document delivered) instead
 * of waiting a fixed time for it.
 */
export interface LiveFrames {
  /** Every server frame received so far, in arrival order. */
  readonly frames: readonly ServerFrame[];
  /** The first frame, received already or later, that matches; fails after `timeoutMs` (60 s, generous for a busy machine). */
  waitFor(match: (frame: ServerFrame) => boolean, timeoutMs?: number): Promise<ServerFrame>;
}

/** Records from now on: call it before the page opens its realtime socket (before `goto`). */
export function recordLiveFrames(page: Page): LiveFrames {
  const frames: ServerFrame[] = [];
  const waiters = new Set<{
    match: (frame: ServerFrame) => boolean;
    resolve: (frame: ServerFrame) => void;
  }>();
  page.on('websocket', (socket) => {
    if (!new URL(socket.url()).pathname.endsWith(REALTIME_PATH)) return;
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string') return;
      const frame = JSON.parse(payload) as ServerFrame;
      frames.push(frame);
      for (const waiter of waiters) {
        if (!waiter.match(frame)) continue;
        waiters.delete(waiter);
        waiter.resolve(frame);
      }
    });
  });
  return {
    frames,
    waitFor(match, timeoutMs = 60_000) {
      const received = frames.find(match);
      if (received) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (frame: ServerFrame) => {
            clearTimeout(timer);
            resolve(frame);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching realtime frame within ${timeoutMs} ms (${frames.length} received)`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
  };
}

/** The server's answer (snapshot or resumed changes) to a subscription of `query` with `params`. */
export const answerTo =
  <N extends LiveQueryName>(query: N, params: LiveQueryParamsOf<N>) =>
  (frame: ServerFrame): boolean =>
    (frame.type === 'snapshot' || frame.type === 'changes') && frame.id === subscriptionKey(query, params);

/** A frame of the subscription of `query` with `params` that delivers a document matching `match`. */
export const delivering =
  <N extends LiveQueryName>(query: N, params: LiveQueryParamsOf<N>, match: (doc: unknown) => boolean) =>
  (frame: ServerFrame): boolean => {
    if (frame.type === 'snapshot' && frame.id === subscriptionKey(query, params))
      return frame.docs.some(({ doc }) => match(doc));
    if (frame.type === 'changes' && frame.id === subscriptionKey(query, params))
      return frame.changes.some(({ doc }) => match(doc));
    return false;
  };
