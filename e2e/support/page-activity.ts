import type { Page } from 'playwright-core';

/**
 * What a page was doing, for the message of a wait that timed out: the requests still in flight
 * (and for how long), the addresses the page went to (client-side navigations too) and the
 * errors and warnings it logged. A wait for the next screen says then whether the page never went, went and
 * came back, or waits on the server.
 */
export function recordPageActivity(page: Page): { describe(): string } {
  const inFlight = new Map<object, { what: string; since: number }>();
  const addresses: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    inFlight.set(request, { what: `${request.method()} ${request.url()}`, since: Date.now() });
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame())
      addresses.push(`${new Date().toISOString().slice(11, 23)} ${frame.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text().slice(0, 200));
  });
  return {
    describe() {
      const now = Date.now();
      const pending = [...inFlight.values()]
        .map(({ what, since }) => `${what} (${((now - since) / 1000).toFixed(1)} s)`)
        .slice(-8);
      return [
        `requests in flight: ${pending.length === 0 ? 'none' : pending.join('; ')}`,
        `addresses: ${addresses.slice(-5).join(' → ') || 'none'}`,
        `logged: ${errors.slice(-5).join(' | ') || 'nothing'}`,
      ].join('\n');
    },
  };
}
