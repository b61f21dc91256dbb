import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { FirstRunSetup } from './first-run-setup.ts';

/** The setup page's calls (first run without a store; protocol studio/operator-calls.ts). */
export function registerSetupRoutes(app: FastifyInstance, setup: FirstRunSetup): void {
  registerCall(app, 'setupStatus', () => setup.status());
  registerCall(app, 'completeSetup', (input, { request }) => setup.complete(input, request.ip));
}
