import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { recordValidators } from './src/web/renderer/form/precompile.js';

const apiTarget = process.env.API_URL ?? `http://localhost:${process.env.PORT ?? 8080}`;

/**
 * Builds always bundle React and antd in production mode. A build started from a process whose NODE_ENV
 * is something else (vitest sets `test` before the e2e set-up builds the app) would otherwise ship the
 * development builds: larger, slower, and with test-only behaviour in some antd components. NODE_ENV is
 * put back when the bundle is written, so the calling process is unaffected.
 */
function productionNodeEnv(command: 'build' | 'serve'): Plugin | undefined {
  if (command !== 'build' || process.env.NODE_ENV === 'production') return undefined;
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const restore = () => {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  };
  return { name: 'production-node-env', closeBundle: restore, buildEnd: (error) => void (error && restore()) };
}

export default defineConfig(({ command }) => ({
  root: path.resolve(import.meta.dirname, 'src/web'),
  base: '/web/',
  publicDir: path.resolve(import.meta.dirname, 'src/web/public'),
  plugins: [productionNodeEnv(command), react(), recordValidators()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/auth': apiTarget,
      '/websocket': { target: apiTarget, ws: true },
    },
  },
}));
