import { FIRST_ANSWERS_ELEMENT_ID, firstAnswerKey } from '@vitrine/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const SETTINGS_IN_PAGE = { primaryColor: '#123456' };
const SETTINGS_FROM_SERVER = { primaryColor: '#abcdef' };

/** A page whose server put the answer to `playerSettings` for store "nordlys" in it. */
function pageWithFirstAnswers(): void {
  const answers = { [firstAnswerKey('playerSettings', { pageUid: 'nordlys' })]: SETTINGS_IN_PAGE };
  vi.stubGlobal('document', {
    getElementById: (id: string) =>
      id === FIRST_ANSWERS_ELEMENT_ID ? { textContent: JSON.stringify(answers) } : null,
  });
}

describe("read, on a page with the server's first answers", () => {
  const fetched: string[] = [];
  beforeEach(() => {
    // api.ts reads the page's answers once: a fresh module for each test.
    vi.resetModules();
    fetched.length = 0;
    pageWithFirstAnswers();
    vi.stubGlobal('window', {
      __VITRINE__: { mainUrl: 'https://vitrine.example' },
      location: { search: '' },
    });
    vi.stubGlobal('fetch', async (url: string) => {
      fetched.push(url);
      return new Response(JSON.stringify(SETTINGS_FROM_SERVER), { status: 200 });
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("answers the page's first read from the page, without a request, and asks the server afterwards", async () => {
    const { read } = await import('./api.ts');
    expect(await read('playerSettings', { pageUid: 'nordlys' })).toEqual(SETTINGS_IN_PAGE);
    expect(fetched).toEqual([]);
    // Taken once: a later read of the same thing is the server's current answer.
    expect(await read('playerSettings', { pageUid: 'nordlys' })).toEqual(SETTINGS_FROM_SERVER);
    expect(fetched).toHaveLength(1);
  });

  it('asks the server for a read the page has no answer to (another store)', async () => {
    const { read } = await import('./api.ts');
    expect(await read('playerSettings', { pageUid: 'elsewhere' })).toEqual(SETTINGS_FROM_SERVER);
    expect(fetched).toHaveLength(1);
    expect(decodeURIComponent(fetched[0] ?? '')).toContain('"pageUid":"elsewhere"');
  });
});
