// The stand-ins for debug.ts that every web test mocking it uses. The web tests share one module
// cache (isolate: false), so a module under test keeps the debug functions of whichever test file
// loaded it first; with one shared set, each file's assertions see the calls, in any file order.
import { vi } from 'vitest';

export const debugLog = vi.fn();
export const logFailure = vi.fn();
export const isDebugEnabled = () => false;
