import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoRetailer, startDemoRetailer } from './retailer-server.ts';

let retailer: DemoRetailer;
beforeAll(async () => {
  retailer = await startDemoRetailer({ port: 0, host: '127.0.0.1', playerOrigin: 'http://127.0.0.1:4010/' });
});
afterAll(async () => {
  await retailer?.close();
});

describe('the demo retailer site', () => {
  it('listens on its own port and names the origins a browser may use', () => {
    expect(retailer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = new URL(retailer.url).port;
    expect(port).not.toBe('4010');
    expect(retailer.origins).toEqual([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  });

  it.each(['/', '/index.html', '/cart.html', '/cart'])(
    'serves %s with the player origin filled in',
    async (path) => {
      const response = await fetch(`${retailer.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await response.text();
      expect(html).toContain('<script src="http://127.0.0.1:4010/sdk.js"></script>');
      expect(html).toContain('data-vitrine-origin="http://127.0.0.1:4010"');
      expect(html).not.toContain('{{');
    },
  );

  it('serves its script and styles, and nothing outside its folder', async () => {
    const script = await fetch(`${retailer.url}/retailer.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain("'UPDATE_CART_CONTENTS'");
    expect((await fetch(`${retailer.url}/retailer.css`)).status).toBe(200);
    expect((await fetch(`${retailer.url}/../server/package.json`)).status).toBe(404);
    expect((await fetch(`${retailer.url}/%2e%2e/server/package.json`)).status).toBe(404);
  });
});
