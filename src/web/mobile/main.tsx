import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getToken } from '../core/auth/token';
import { toLogin } from './api';
import { MobileApp } from './MobileApp';
import './mobile.css';

// The shell is kept for offline visits by its service worker (server: web-mobile.ts); data never is.
if ('serviceWorker' in navigator) void navigator.serviceWorker.register('/web/m/sw.js', { scope: '/web/m/' }).catch(() => undefined);

if (!getToken() && navigator.onLine && !window.location.pathname.startsWith('/web/m/login')) toLogin();
else createRoot(document.getElementById('m-app')!).render(
  <StrictMode>
    <MobileApp />
  </StrictMode>,
);
