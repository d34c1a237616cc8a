import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import { useEffect, type ReactNode } from 'react';
import './files/install-enclosures';
import { setFeedback } from './request/feedback';

/** The one query cache of the app. */
export const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } } });

/** Hands antd's themed message/notification/modal to code outside React (the request layer). */
function FeedbackBridge({ children }: { children: ReactNode }) {
  const api = AntApp.useApp();
  setFeedback(api);
  useEffect(() => {
    setFeedback(api);
    return () => setFeedback(undefined);
  }, [api]);
  return <>{children}</>;
}

/**
 * What the pages that work with server data need around them: antd's App (themed message,
 * notification and modal, also for the request layer) and the react-query cache. The signed-in layout
 * and the phone upload page load it with their route; the login page does without, so its first
 * download stays small.
 */
export function AppShell({ children }: { children: ReactNode }) {
  return (
    <AntApp>
      <FeedbackBridge>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </FeedbackBridge>
    </AntApp>
  );
}
