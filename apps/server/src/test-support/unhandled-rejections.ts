import { afterAll, afterEach, expect } from 'vitest';

/** The process's unhandled promise rejections from the call on. */
export interface UnhandledRejections {
  readonly seen: unknown[];
  /** Resolves once Node has reported the rejections of what has happened so far. */
  settled(): Promise<void>;
  stop(): void;
}

/**
 * Records this process's unhandled promise rejections from now on: Node ends a server process on
 * one, so a test of a path that used to leave one asserts there is none.
 */
function watchUnhandledRejections(): UnhandledRejections {
  const seen: unknown[] = [];
  const record = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', record);
  return {
    seen,
    // Node reports a rejection as unhandled once the microtasks after it have run: two turns of
    // the event loop are past that.
    async settled() {
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    },
    stop: () => process.off('unhandledRejection', record),
  };
}

/** In a test file's top level: each test fails if an unhandled rejection was reported by its end. */
export function failOnUnhandledRejections(): UnhandledRejections {
  const rejections = watchUnhandledRejections();
  afterEach(async () => {
    await rejections.settled();
    expect(rejections.seen).toEqual([]);
  });
  afterAll(() => rejections.stop());
  return rejections;
}
