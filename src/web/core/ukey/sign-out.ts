import { useSession } from '../stores/session';

/**
 * Ends the session and opens the login page with a full page load, so no store (menus, tags, counters)
 * keeps anything of the user who left.
 */
export async function signOut(): Promise<void> {
  await useSession.getState().logout();
  window.location.assign(`${import.meta.env.BASE_URL}login`);
}
