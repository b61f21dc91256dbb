/**
 * Compile-time check that the SDK's hand-written payload shapes (protocol.ts) match the zod
 * schemas of packages/protocol/src/host.ts: `npm run typecheck` fails when either side changes
 * alone. (The names, such as actions and message types, are the shared vocabulary.) Type-only;
 * nothing here reaches a bundle.
 */
import type * as Zod from '@vitrine/protocol';
import type {
  HostCapabilities,
  HostProductData,
  HostToPlayerPayloads,
  PlayerToHostPayloads,
} from './protocol.ts';

/** True when A and B are assignable both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

/** The protocol's messages as a map from type to payload (after parsing). */
type Payloads<M extends { type: string; payload: unknown }> = {
  [K in M['type']]: Extract<M, { type: K }>['payload'];
};
type ZodPlayerToHost = Payloads<Zod.PlayerToHostMessage>;
type ZodHostToPlayer = Payloads<Zod.HostToPlayerMessage>;

/** Empty payloads are `{}` in the schema and `Record<string, never>` here; both mean "no fields". */
type Normalize<T> = { [K in keyof T]: keyof T[K] extends never ? 'empty' : T[K] };

export type Checks = [
  Assert<Same<keyof PlayerToHostPayloads, keyof ZodPlayerToHost>>,
  Assert<Same<keyof HostToPlayerPayloads, keyof ZodHostToPlayer>>,
  Assert<Same<Normalize<PlayerToHostPayloads>, Normalize<ZodPlayerToHost>>>,
  Assert<Same<Normalize<HostToPlayerPayloads>, Normalize<ZodHostToPlayer>>>,
  Assert<Same<HostCapabilities, Zod.HostCapabilities>>,
  Assert<Same<HostProductData, Zod.HostProductData>>,
];
