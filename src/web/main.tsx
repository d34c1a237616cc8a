import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import './core/files/install-enclosures';
import { setFeedback } from './core/request/feedback';
import { setRequestHooks } from './core/request/request';
import { ThemedConfigProvider } from './core/layout/ThemedConfigProvider';
import { createAppRouter } from './core/router';
import { usePermission } from './core/stores/permission';
import { useSession } from './core/stores/session';
import { useSysConfig } from './core/stores/sysconfig';
import './styles.css';

dayjs.locale('zh-cn');

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } } });

/** Hands antd's themed message/notification/modal to code outside React (the request layer). */
function FeedbackBridge({ children }: { children: ReactNode }) {
  const api = AntApp.useApp();
  useEffect(() => setFeedback(api), [api]);
  setFeedback(api);
  return <>{children}</>;
}

async function bootstrap() {
  // Spec §7: system configuration is requested at start-up, before login, and applies to the login page.
  await useSysConfig.getState().load();
  const router = createAppRouter();

  setRequestHooks({
  onExpired: async () => {
    await useSession.getState().logout(false);
    usePermission.getState().reset();
    const here = window.location.pathname.replace(/^\/web/, '') + window.location.search;
    await router.navigate(`/login?redirect=${encodeURIComponent(here)}`, { replace: true });
  },
  onForbidden: () => void router.navigate('/401'),
  });

  createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <ThemedConfigProvider locale={zhCN} modal={{ mask: { closable: false } }}>
      <AntApp>
        <FeedbackBridge>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </FeedbackBridge>
      </AntApp>
    </ThemedConfigProvider>
  </StrictMode>,
  );
}

void bootstrap();
