import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { recordValidators } from './generators/lib/form-validators.js';

/** Builds the app without axios's fetch adapter; the XHR adapter serves every request (axios-fetch-stub.ts). */
function withoutAxiosFetchAdapter(): Plugin {
  const stub = path.resolve(import.meta.dirname, 'src/web/core/request/axios-fetch-stub.ts');
  return {
    name: 'without-axios-fetch-adapter',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './fetch.js' && importer && /[\\/]axios[\\/]lib[\\/]adapters[\\/]adapters\.js$/.test(importer)) return stub;
      return null;
    },
  };
}

const apiTarget = process.env.API_URL ?? `http://localhost:${process.env.PORT ?? 8080}`;

export default defineConfig({
  root: path.resolve(import.meta.dirname, 'src/web'),
  base: '/web/',
  publicDir: path.resolve(import.meta.dirname, 'src/web/public'),
  plugins: [react(), recordValidators(), withoutAxiosFetchAdapter()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // @rc-component packages declare no `sideEffects`, so importing one name from an index would pull the
    // whole package into the importing page's chunks; their modules are pure, and lazy barrels skip the rest.
    rolldownOptions: {
      // The desktop app and the mobile terminal (issue 31: /web/m/, served from mobile/index.html).
      input: { main: path.resolve(import.meta.dirname, 'src/web/index.html'), mobile: path.resolve(import.meta.dirname, 'src/web/mobile/index.html') },
      treeshake: { moduleSideEffects: [{ test: /node_modules[\\/]@rc-component[\\/].*\.js$/, sideEffects: false }, { test: /\.css$/, sideEffects: true }] },
      experimental: { lazyBarrel: true },
    },
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
