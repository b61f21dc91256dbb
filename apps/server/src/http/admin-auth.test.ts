import { describe, expect, it } from 'vitest';
import { generatedAdminKeyNotice } from './admin-auth.ts';

/** Issue 12 §9: the generated admin key was written into the JSON log at info level. */
describe('generatedAdminKeyNotice', () => {
  const key = 'k3y-0123456789-abcdefghij';

  it('shows a generated key once on a terminal, clearly labelled', () => {
    const notice = generatedAdminKeyNotice(key, true);
    expect(notice).toEqual({ terminal: expect.stringContaining(`Admin API key:      ${key}`) });
  });

  it('never puts the key into the log when the output is not a terminal', () => {
    const notice = generatedAdminKeyNotice(key, false);
    expect('log' in notice && notice.log).toMatch(/VITRINE_ADMIN_KEY is not set/);
    expect(JSON.stringify(notice)).not.toContain(key);
  });
});
