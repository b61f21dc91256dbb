/**
 * The little of `oidc-provider` (a dev dependency: the real OpenID Connect provider the OIDC
 * tests sign in at) that the tests use; the package ships no type declarations.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export interface Configuration {
    clients?: Array<Record<string, unknown>>;
    pkce?: { required?: () => boolean };
    claims?: Record<string, string[]>;
    findAccount?: (context: unknown, id: string) => Account | undefined | Promise<Account | undefined>;
    cookies?: { keys?: string[] };
    features?: Record<string, { enabled: boolean }>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
