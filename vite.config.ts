import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { recordValidators } from './src/web/renderer/form/precompile.js';

const apiTarget = process.env.API_URL ?? `http://localhost:${process.env.PORT ?? 8080}`;

export default defineConfig({
  root: path.resolve(import.meta.dirname, 'src/web'),
  base: '/web/',
  publicDir: path.resolve(import.meta.dirname, 'src/web/public'),
  plugins: [react(), recordValidators()],
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
});
