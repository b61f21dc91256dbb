/**
 * A request a person waits for (signing in, creating an account): after `slowMs` she is told it
 * is still working, and after `timeoutMs` the wait ends with a RequestTimedOut she can retry,
 * instead of a greyed button for as long as a busy server takes (issue 27, item 2). The request
 * itself is not cancelled: an answer that comes later is simply not waited for.
 */
export class RequestTimedOut extends Error {
  constructor() {
    super('the server did not answer in time');
    this.name = 'RequestTimedOut';
  }
}

/** How long before the form says it is still working, and before it gives up. */
export const ACCOUNT_REQUEST_SLOW_MS = 4_000;
export const ACCOUNT_REQUEST_TIMEOUT_MS = 45_000;

export function awaitPatiently<T>(
  work: Promise<T>,
  { slowMs, timeoutMs, onSlow }: { slowMs: number; timeoutMs: number; onSlow(): void },
): Promise<T> {
  let slow: ReturnType<typeof setTimeout> | undefined;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    slow = setTimeout(onSlow, slowMs);
    deadline = setTimeout(() => reject(new RequestTimedOut()), timeoutMs);
  });
  return Promise.race([work, timedOut]).finally(() => {
    clearTimeout(slow);
    clearTimeout(deadline);
  });
}
