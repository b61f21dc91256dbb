import { expect } from 'vitest';

/** What `server.inject` answers, as far as these checks read it. */
interface Answer {
  statusCode: number;
  body: string;
  json(): unknown;
}

/** The answer to a request whose input the server refuses: 400, the field and the reason in words. */
export function expectInvalidRequest(answer: Answer, message: string) {
  expect(answer.statusCode, answer.body).toBe(400);
  expect(answer.json()).toEqual({ error: 'invalid_request', message });
}

/** The answer to a token the server cannot take: 401, with why in words; `sent` names the case. */
export function expectUnauthenticated(answer: Answer, message: string, sent?: string) {
  expect(answer.statusCode, sent ?? answer.body).toBe(401);
  expect(answer.json(), sent).toEqual({ error: 'unauthenticated', message });
}
