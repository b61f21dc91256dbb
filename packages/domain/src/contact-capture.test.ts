import { describe, expect, it } from 'vitest';
import { contactProblems } from './contact-capture.ts';

describe('contactProblems', () => {
  it('needs a phone or an e-mail, consent, and a name from an anonymous viewer', () => {
    expect(contactProblems({ consent: false }, true)).toEqual(['phoneOrEmail', 'consent', 'name']);
    expect(contactProblems({ phone: '  ', email: '', name: ' ', consent: true }, true)).toEqual([
      'phoneOrEmail',
      'name',
    ]);
    expect(contactProblems({ phone: '+45 12345678', consent: true, name: 'Ada' }, true)).toEqual([]);
    expect(contactProblems({ email: 'a@b.co', consent: true }, false)).toEqual([]);
    expect(contactProblems({ email: 'a@b.co', consent: false }, false)).toEqual(['consent']);
  });
});
