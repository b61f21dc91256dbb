import type { z } from 'zod';
import type { CallRoute } from './call-types.ts';

/** The schema half of a call: what it takes and what it answers. */
export interface CallSchemas {
  /** One line for docs/api.md. */
  summary: string;
  /** The path parameters; required when the path has `:name` segments. */
  params?: z.ZodType;
  /** The query string (GET calls). */
  query?: z.ZodType;
  /** The JSON body; absent for calls without one. */
  request?: z.ZodType;
  /**
   * Picks the schema that fits a body when `request` is a union, so a 400 names the bad field
   * instead of a union's bare "Invalid input" (tracking: one event or a batch).
   */
  pickRequest?: (body: unknown) => z.ZodType;
  /** An absent body counts as `{}` (calls whose fields are all optional, and the checkout's). */
  bodyOptional?: true;
  /**
   * The server hands the handler the body's exact bytes as a string and parses nothing itself
   * (webhooks verify a signature over them); `request` then documents what the bytes hold.
   */
  rawBody?: true;
  /**
   * The body is a file of one of these media types (an image upload): the handler gets its bytes
   * (a Buffer); another content type is a 415, a body over `maxBytes` a 413. With `streamed`
   * (a video of hundreds of megabytes) the handler gets the bytes as they arrive instead of a
   * buffer in memory, and stops at `maxBytes` (the server's stream answers 413).
   */
  binaryBody?: { mediaTypes: readonly string[]; maxBytes: number; streamed?: true };
  /** The answer's body; null for an empty answer (204). */
  response: z.ZodType | null;
  /** The status of a successful answer when it is not 200. */
  status?: 201 | 204;
}

/** One call: where it is served, who may make it, what it takes and what it answers. */
export type CallDefinition = CallRoute & CallSchemas;

/**
 * Declares one call: its route and its schemas in one place, keeping their literal types (the
 * server's handler types and the web's call types are built from them). The zod-free route
 * tables the web's first load needs are generated from these declarations (`npm run calls:routes`).
 */
export const call = <const D extends CallDefinition>(definition: D): D => definition;

type Field<D, K extends keyof CallSchemas> = D extends { [P in K]: infer T extends z.ZodType }
  ? T
  : undefined;
type Output<T> = T extends z.ZodType ? z.output<T> : undefined;
type Input<T> = T extends z.ZodType ? z.input<T> : undefined;

/** What a client sends as a call's body (defaults may be left out). */
export type RequestOf<D> = Input<Field<D, 'request'>>;
/** A call's body as the handler gets it, parsed (defaults applied). */
export type BodyOf<D> = D extends { rawBody: true }
  ? string
  : D extends { binaryBody: { streamed: true } }
    ? AsyncIterable<Uint8Array>
    : D extends { binaryBody: object }
      ? Uint8Array
      : Output<Field<D, 'request'>>;
export type ParamsOf<D> = Output<Field<D, 'params'>>;
export type QueryOf<D> = Output<Field<D, 'query'>>;
/** What a call answers (nothing for an empty 204 answer). */
export type ResponseOf<D> = D extends { response: infer T extends z.ZodType } ? z.output<T> : undefined;
