import { ReadCatalogue, type ReadName, type ReadParams, type ReadResult } from '@vitrine/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError, parseInput } from '../http/errors.ts';

export type ReadHandlers = { [N in ReadName]: (params: ReadParams<N>) => Promise<ReadResult<N>> };

/**
 * Serves each named read of the catalogue as a snapshot at `POST /reads/{name}`. The realtime
 * gateway serves the same handlers as live queries, so there is one place per read.
 */
export function registerReadRoutes(app: FastifyInstance, handlers: ReadHandlers): void {
  app.post('/reads/:name', async (request) => {
    const { name } = parseInput(z.object({ name: z.string().max(100) }), request.params);
    if (!Object.hasOwn(ReadCatalogue, name)) throw new HttpError(404, 'not_found', `Unknown read "${name}".`);
    return runRead(handlers, name as ReadName, request.body);
  });
}

export function runRead<N extends ReadName>(
  handlers: ReadHandlers,
  name: N,
  rawParams: unknown,
): Promise<ReadResult<N>> {
  const params = parseInput(ReadCatalogue[name].params, rawParams) as ReadParams<N>;
  return handlers[name](params);
}
