import { act } from 'preact/test-utils';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

/**
 * A React root in a fresh element of the document for each test of the file, unmounted and removed
 * after it (a component test's set-up under happy-dom). Read `root` and `container` inside tests.
 */
export function mountEachTest(): { readonly root: Root; readonly container: HTMLElement } {
  let current: { root: Root; container: HTMLElement } | null = null;
  beforeEach(() => {
    const container = document.createElement('div');
    document.body.append(container);
    current = { root: createRoot(container), container };
  });
  afterEach(() => {
    const mounted = current;
    if (!mounted) return;
    act(() => mounted.root.unmount());
    mounted.container.remove();
    current = null;
  });
  const mounted = () => {
    if (!current) throw new Error('mountEachTest: read root and container inside a test');
    return current;
  };
  return {
    get root() {
      return mounted().root;
    },
    get container() {
      return mounted().container;
    },
  };
}
