import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { syncDeviceWithWindow, useApp } from '../stores/app';

/**
 * Spec §4 in the layout: the device is checked when the layout mounts (the window listener of the app
 * store follows later resizes), and on mobile the sidebar is force-closed on every route change.
 */
export function useResponsive(): void {
  const { pathname } = useLocation();

  useEffect(() => {
    syncDeviceWithWindow();
  }, []);

  useEffect(() => {
    const app = useApp.getState();
    if (app.device === 'mobile' && app.sidebar.opened) app.closeSidebar(false);
  }, [pathname]);
}
