// antd reads matchMedia (responsive grid, breakpoints); happy-dom has none.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

// waitFor/findBy wait on their condition; one second (the library's default) is too short on a loaded
// 2-core machine, where a form's validation render alone took 4 s in a full run.
import { configure } from '@testing-library/react';
configure({ asyncUtilTimeout: 30_000 });
