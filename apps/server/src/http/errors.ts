import type { FastifyError, FastifyInstance } from 'fastify';
import type { z } from 'zod';

/** An error with an HTTP status and a message meant for the caller. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Extra fields of the answer body beside error and message (e.g. retryAfterMs). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new HttpError(404, 'not_found', message);

/** Parses untrusted input with a schema; failures become a 400 naming each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new HttpError(400, 'invalid_request', describeIssues(result.error));
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

function isDatabaseDataException(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return error instanceof Error && typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/** Every error leaves as `{error, message}`; unexpected ones are logged and hidden behind a 500. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      const retryAfterMs = error.details?.retryAfterMs;
      if (typeof retryAfterMs === 'number')
        reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
      return reply
        .status(error.statusCode)
        .send({ ...error.details, error: error.code, message: error.message });
    }
    if (isDatabaseDataException(error)) {
      // SQLSTATE class 22: a value the database cannot store (NUL in text, out-of-range number).
      return reply.status(400).send({ error: 'invalid_request', message: `Invalid value: ${error.message}` });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: unparsable JSON, wrong content type, body too large.
      return reply.status(status).send({ error: 'invalid_request', message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'internal', message: 'Something went wrong on our side.' });
  });
}
