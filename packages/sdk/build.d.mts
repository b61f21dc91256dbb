/** Types of build.mjs for the tests that import it. */
export declare const outputs: Record<'sdk.js' | 'index.mjs', object>;
export declare function bundle(name: 'sdk.js' | 'index.mjs', options: { write: false }): Promise<string>;
export declare function bundle(name: 'sdk.js' | 'index.mjs', options?: { write?: true }): Promise<null>;
