/**
 * The little of `structured-data-testing-tool` (4.x, a dev dependency) the page head tests use:
 * its offline test of an HTML text's JSON-LD, microdata and meta tags, its schema.org type list
 * and its social-media presets. The package ships JavaScript without type declarations.
 */
declare module 'structured-data-testing-tool' {
  export interface StructuredDataTest {
    test: string;
    type?: 'jsonld' | 'metatag' | 'microdata' | 'rdfa' | 'any';
    expect?: unknown;
    description?: string;
    warning?: boolean;
    error?: { message: string };
  }
  export interface StructuredDataPreset {
    name: string;
    description: string;
    tests?: StructuredDataTest[];
    presets?: StructuredDataPreset[];
  }
  export interface StructuredDataResult {
    passed: StructuredDataTest[];
    failed: StructuredDataTest[];
    warnings: StructuredDataTest[];
    schemas: string[];
    structuredData: {
      jsonld: Record<string, Record<string, unknown>[]>;
      metatags: Record<string, string[]>;
    };
  }
  /** Resolves with the result when every test passed; rejects with `{ type: 'VALIDATION_FAILED', res }`. */
  export function structuredDataTestHtml(
    html: string,
    options: { presets?: StructuredDataPreset[]; schemas?: string[]; tests?: StructuredDataTest[] },
  ): Promise<StructuredDataResult>;
}

declare module 'structured-data-testing-tool/presets' {
  import type { StructuredDataPreset } from 'structured-data-testing-tool';
  export const Twitter: StructuredDataPreset;
  export const Facebook: StructuredDataPreset;
  export const Google: StructuredDataPreset;
}

declare module 'structured-data-testing-tool/lib/schemas.js' {
  /** schema.org's types as the tool knows them, by name. */
  export const schemas: Record<string, { name: string; subClassOf?: string }>;
}
