import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { deviceForWidth, useApp } from '../stores/app';

/**
 * Spec §4: desktop by default, mobile under width 992 (the viewport width, as CSS media queries count
 * it). On mobile the sidebar is force-closed when the width changes and on every route change.
 */
export function useResponsive(): void {
  const { pathname } = useLocation();

  useEffect(() => {
    let lastWidth = -1;
    const onResize = () => {
      if (document.hidden || window.innerWidth === lastWidth) return; // height-only resizes (mobile address bar) keep the drawer
      lastWidth = window.innerWidth;
      const device = deviceForWidth(window.innerWidth);
      const app = useApp.getState();
      app.toggleDevice(device);
      if (device === 'mobile') app.closeSidebar(true);
    };
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  useEffect(() => {
    const app = useApp.getState();
    if (app.device === 'mobile' && app.sidebar.opened) app.closeSidebar(false);
  }, [pathname]);
}
