import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
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

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build, which the server sends as they are
 * (@fastify/static `preCompressed`): a phone on a slow network downloads a quarter of the bytes (issue 31), and
 * nothing is compressed per request. Brotli's best quality where it costs little (files up to 256 KB).
 */
function precompressed(): Plugin {
  let outDir = '';
  return {
    name: 'precompressed',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (fs.readdirSync(outDir, { recursive: true }) as string[]).filter((f) => /\.(js|css|html|svg|json|webmanifest)$/.test(f));
      await Promise.all(
        files.map(async (f) => {
          const file = path.join(outDir, f);
          const body = fs.readFileSync(file);
          if (body.length < 1024) return;
          const quality = body.length <= 256 * 1024 ? 11 : 9;
          const [br, gz] = await Promise.all([brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }), gzip(body, { level: 9 })]);
          fs.writeFileSync(`${file}.br`, br);
          fs.writeFileSync(`${file}.gz`, gz);
        }),
      );
    },
  };
}

/**
 * The mobile terminal's stylesheet goes inside its page (issue 31): under slow 3G every request costs a 2 s round
 * trip, and a linked stylesheet would hold the first paint (the shell drawn in mobile/index.html) until it came.
 */
function inlineMobileCss(): Plugin {
  return {
    name: 'inline-mobile-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !/[\\/]mobile[\\/]index\.html$/.test(ctx.filename)) return html;
        const bundle = ctx.bundle;
        return html.replace(/<link rel="stylesheet"[^>]*href="\/web\/([^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = bundle[file];
          return asset?.type === 'asset' ? `<style>${String(asset.source)}</style>` : tag;
        });
      },
    },
  };
}

const apiTarget = process.env.API_URL ?? `http://localhost:${process.env.PORT ?? 8080}`;

export default defineConfig({
  root: path.resolve(import.meta.dirname, 'src/web'),
  base: '/web/',
  publicDir: path.resolve(import.meta.dirname, 'src/web/public'),
  plugins: [react(), recordValidators(), withoutAxiosFetchAdapter(), inlineMobileCss(), precompressed()],
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
