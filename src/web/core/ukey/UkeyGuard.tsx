import { lazy, Suspense } from 'react';
import { useSession } from '../stores/session';

// The client (PIN dialogs, the local service connection) loads only for users who sign with a ukey.
const UkeyClient = lazy(() => import('./UkeyClient'));

/**
 * Mount once inside the layout: runs the hardware-certificate client only for users flagged `useUkey`
 * (spec §6); for everyone else it renders nothing, downloads nothing and opens no connection.
 */
export function UkeyGuard() {
  const useUkey = useSession((s) => s.user?.useUkey === true);
  return useUkey ? (
    <Suspense fallback={null}>
      <UkeyClient />
    </Suspense>
  ) : null;
}
