/** Types of build.mjs for the TypeScript that imports it (the tests' release-build helper). */
export declare function buildRelease(options?: {
  changedOnly?: boolean;
  log?: (line: string) => void;
}): Promise<boolean>;
