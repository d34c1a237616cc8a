import zhCN from 'antd/es/locale/zh_CN';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { setRequestHooks } from './core/request/request';
import { ThemedConfigProvider } from './core/layout/ThemedConfigProvider';
import { createAppRouter } from './app/router';
import { useSession } from './core/stores/session';
import { useSysConfig } from './core/stores/sysconfig';
import { mobilePathOf } from '../shared/mobile-links';
import { isPhoneUserAgent } from '../shared/terminal';
import './styles.css';

async function bootstrap() {
  // Spec §7: system configuration is requested at start-up, before login, and applies to the login page.
  await useSysConfig.getState().load();
  const router = createAppRouter();

  setRequestHooks({
    onExpired: async () => {
      const here = window.location.pathname.replace(/^\/web/, '') + window.location.search;
      await useSession.getState().logout(false);
      await router.navigate(`/login?redirect=${encodeURIComponent(here)}`, { replace: true });
      // Only once the layout is left: with no menus it would send the page to the root first.
      (await import('./core/stores/permission')).usePermission.getState().reset();
    },
    onForbidden: () => void router.navigate('/401'),
  });

  // antd's App (message, notification, modal) and the query cache come with the pages that need them: core/app-shell.tsx.
  createRoot(document.getElementById('app')!).render(
    <StrictMode>
      <ThemedConfigProvider locale={zhCN} modal={{ mask: { closable: false } }}>
        <RouterProvider router={router} />
      </ThemedConfigProvider>
    </StrictMode>,
  );
}

// Issue 31: a workflow record's link (a to-do, a message) opened on a phone opens the record's mobile screen.
const phoneScreen = isPhoneUserAgent(navigator.userAgent) ? mobilePathOf({ link: window.location.pathname + window.location.search }) : null;
if (phoneScreen?.startsWith('approvals/')) window.location.replace(`/web/m/${phoneScreen}`);
else void bootstrap();
