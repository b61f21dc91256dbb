/**
 * The app runs on Preact through its React compatibility layer instead of react-dom: the same hooks,
 * components and libraries (React Router, react-i18next, TanStack Table, react-hook-form, dnd-kit)
 * for about 10 KB gzip instead of the 67 of react-dom + react + scheduler, which is what brings the
 * widget's first load under 120 KB (docs/architecture.md, "First load"). Every import of React,
 * ours or a library's, resolves to `preact/compat`: one runtime, one copy of each context. The
 * build, the dev server and the web unit tests (vitest.config.ts) all use these aliases. The types
 * stay React's (`@types/react`): the code is written against React's API.
 */
export const preactAliases = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  // react-i18next's shim for React 17 (CommonJS that requires React): Preact has the hook itself.
  { find: /^use-sync-external-store\/shim$/, replacement: 'preact/compat' },
];
