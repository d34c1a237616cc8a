import { waitFor } from '@testing-library/react';
import { createMemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { appRoutes } from '../../src/web/app/router';
import { OPEN_PATHS } from '../../src/web/core/auth/guard';
import { removeToken } from '../../src/web/core/auth/token';

/** Where the app's own router ends up for a path, without a session (loaders run, nothing is rendered). */
async function landing(path: string): Promise<string> {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  await waitFor(() => expect(router.state.initialized && router.state.navigation.state === 'idle').toBe(true), { timeout: 10_000 });
  const { pathname, search } = router.state.location;
  router.dispose();
  return decodeURIComponent(pathname + search);
}

describe('the guard of the app router without a session (spec §2)', () => {
  afterEach(() => removeToken());

  it('[S2.G2a] the six open paths stay where they are', async () => {
    expect(OPEN_PATHS).toEqual(['/login', '/newlogin', '/kclogin', '/lylogin', '/rjlogin', '/mobileUpload']);
    for (const path of OPEN_PATHS) expect(await landing(path)).toBe(path);
  });

  it('[S2.G2b][S2.G2c] a path that starts with an open path is open too: no login for it, the catch-all takes it to the root; other paths go to login with their own redirect', async () => {
    // Open: not sent to login for itself; as an unknown page it goes to the root, which needs a session.
    expect(await landing('/loginFoo')).toBe('/login?redirect=/');
    expect(await landing('/mobileUpload/x')).toBe('/login?redirect=/');
    // Not open: login, coming back to the path afterwards.
    expect(await landing('/dashboard')).toBe('/login?redirect=/dashboard');
    expect(await landing('/user/center')).toBe('/login?redirect=/user/center');
  });
});
