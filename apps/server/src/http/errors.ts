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
    /** Extra headers of the answer (e.g. a retry-after counted other than from retryAfterMs). */
    readonly headers?: Record<string, string>,
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

/**
 * What a database data exception (SQLSTATE class 22: a value the database cannot store) tells
 * the caller. The database's own text names its internals (encodings, types, byte values), so it
 * goes to the log and the caller gets one of these.
 */
const DATA_EXCEPTION_MESSAGES: Record<string, string> = {
  '22001': 'A text is too long.',
  '22003': 'A number is out of range.',
  '22021': 'A text contains a character that cannot be stored (such as a NUL character).',
  '22P05': 'A text contains a character that cannot be stored (such as a NUL character).',
  '22P02': 'A value has the wrong format.',
  '22007': 'A date or time has the wrong format.',
  '22008': 'A date or time is out of range.',
};

function dataExceptionCode(error: unknown): string | null {
  const code = (error as { code?: unknown }).code;
  return error instanceof Error && typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code) ? code : null;
}

/** Every error leaves as `{error, message}`; unexpected ones are logged and hidden behind a 500. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      const retryAfterMs = error.details?.retryAfterMs;
      if (typeof retryAfterMs === 'number')
        reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
      if (error.headers) reply.headers(error.headers);
      return reply
        .status(error.statusCode)
        .send({ ...error.details, error: error.code, message: error.message });
    }
    const dataException = dataExceptionCode(error);
    if (dataException) {
      request.log.info({ err: error }, 'value refused by the database');
      const message = DATA_EXCEPTION_MESSAGES[dataException] ?? 'A value cannot be stored.';
      return reply.status(400).send({ error: 'invalid_request', message: `Invalid value: ${message}` });
    }
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Fastify's text names no limit; an upload's sender needs it to pick a smaller file.
      const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0;
      return reply.status(413).send({
        error: 'payload_too_large',
        message: `The body is larger than the ${byteSize(limit)} allowed.`,
      });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: unparsable JSON, wrong content type.
      return reply.status(status).send({ error: 'invalid_request', message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'internal', message: 'Something went wrong on our side.' });
  });
}

/** 10485760 → "10 MB", 262144 → "256 KB". */
function byteSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}
