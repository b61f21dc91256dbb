import { accountCalls } from './account-calls.ts';
import type { CallName } from './call-routes.ts';
import { checkoutCalls } from './checkout-calls.ts';
import { clipCalls } from './clip-calls.ts';
import { contentCalls } from './content-calls.ts';
import {
  type BodyOf,
  defineCalls,
  type ParamsOf,
  type QueryOf,
  type RequestOf,
  type ResponseOf,
} from './define-call.ts';
import { flashDealCalls } from './flash-deal-calls.ts';
import { interactionCalls } from './interaction-calls.ts';
import { searchCalls } from './search-calls.ts';
import { studioCalls } from './studio/studio-calls.ts';
import { trackingCalls } from './tracking-calls.ts';

export * from './account-calls.ts';
export * from './call-routes.ts';
export * from './checkout-calls.ts';
export * from './clip-calls.ts';
export * from './content-calls.ts';
export type { CallDefinition, CallSchemas } from './define-call.ts';
export * from './flash-deal-calls.ts';
export * from './interaction-calls.ts';
export * from './player-routes.ts';
export * from './search-calls.ts';
export * from './studio/index.ts';
export * from './tracking-calls.ts';

/**
 * Every HTTP call of the server but the named reads (ReadCatalogue), declared once: the server
 * registers its handlers from it, the web calls by name, docs/api.md is generated from it.
 */
export const CallCatalogue = defineCalls({
  ...accountCalls,
  ...interactionCalls,
  ...contentCalls,
  ...checkoutCalls,
  ...flashDealCalls,
  ...trackingCalls,
  ...searchCalls,
  ...clipCalls,
  ...studioCalls,
});

type Calls = typeof CallCatalogue;
/** What a client sends as the body of call N. */
export type CallRequest<N extends CallName> = RequestOf<Calls[N]>;
/** The body of call N as its handler gets it (parsed, defaults applied). */
export type CallBody<N extends CallName> = BodyOf<Calls[N]>;
export type CallParams<N extends CallName> = ParamsOf<Calls[N]>;
export type CallQuery<N extends CallName> = QueryOf<Calls[N]>;
/** What call N answers. */
export type CallResponse<N extends CallName> = ResponseOf<Calls[N]>;
