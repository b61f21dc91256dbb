import { accountCalls } from './account-calls.ts';
import { adminCalls } from './admin-calls.ts';
import type { CALL_ROUTES, CallName } from './call-routes.ts';
import type { CallRoute } from './call-types.ts';
import { checkoutCalls } from './checkout-calls.ts';
import { clipCalls } from './clip-calls.ts';
import { contentCalls } from './content-calls.ts';
import type { BodyOf, ParamsOf, QueryOf, RequestOf, ResponseOf } from './define-call.ts';
import { flashDealCalls } from './flash-deal-calls.ts';
import { interactionCalls } from './interaction-calls.ts';
import { searchCalls } from './search-calls.ts';
import { studioCalls } from './studio/studio-calls.ts';
import { trackingCalls } from './tracking-calls.ts';

export * from './account-calls.ts';
export * from './admin-calls.ts';
export * from './call-routes.ts';
export * from './call-types.ts';
export * from './checkout-calls.ts';
export * from './clip-calls.ts';
export * from './content-calls.ts';
export { type CallDefinition, type CallSchemas, call } from './define-call.ts';
export * from './flash-deal-calls.ts';
export * from './interaction-calls.ts';
export * from './player-routes.generated.ts';
export * from './search-calls.ts';
export * from './studio/index.ts';
export * from './tracking-calls.ts';

/**
 * Every HTTP call of the server but the named reads (ReadCatalogue), each declared once in the
 * file of its area: the server registers its handlers from it, the web calls by name, the route
 * tables (*-routes.generated.ts) and docs/api.md are generated from it.
 */
export const CallCatalogue = {
  ...accountCalls,
  ...interactionCalls,
  ...contentCalls,
  ...checkoutCalls,
  ...flashDealCalls,
  ...trackingCalls,
  ...searchCalls,
  ...clipCalls,
  ...adminCalls,
  ...studioCalls,
};

type Calls = typeof CallCatalogue;
/** What a client sends as the body of call N. */
export type CallRequest<N extends CallName> = RequestOf<Calls[N]>;
/** The body of call N as its handler gets it (parsed, defaults applied). */
export type CallBody<N extends CallName> = BodyOf<Calls[N]>;
export type CallParams<N extends CallName> = ParamsOf<Calls[N]>;
export type CallQuery<N extends CallName> = QueryOf<Calls[N]>;
/** What call N answers. */
export type CallResponse<N extends CallName> = ResponseOf<Calls[N]>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type DeclaredRoutes = { [N in keyof Calls]: Pick<Calls[N], keyof CallRoute> };
/**
 * The protocol does not compile while the generated route tables differ from the declarations (a
 * call added, removed or moved): the web would address a call at a stale path.
 */
const _generatedRoutesAreCurrent: Same<DeclaredRoutes, typeof CALL_ROUTES> extends true
  ? true
  : 'the *-routes.generated.ts files are stale: run `npm run calls:routes`' = true;
