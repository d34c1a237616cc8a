import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is src/server/server-build.ts; kept free of app imports so a build check loads little). */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_DIST_DIR = path.join(ROOT, 'dist', 'server');
const MIGRATIONS_SOURCE = path.join(ROOT, 'src', 'server', 'db', 'migrations');
/** esbuild's metafile of the last build: its `inputs` are the source files the bundle was built from. */
const META_FILE = 'meta.json';

export function newestMtime(dir: string): number {
  let newest = fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

export interface ServerBuildOptions {
  /** Output name → source file, relative to the repository root; by default the server's entry. */
  entryPoints?: Record<string, string>;
  outdir?: string;
}

/**
 * Bundles the server's own code into plain JavaScript (packages stay imports from node_modules), so the
 * server runs without the TypeScript loader: tsx costs ~100 MB of resident memory and start time.
 * Migrations are copied next to the bundle: `db/migrate.ts` reads them from beside its own file. The
 * bundle sits two levels below the root like its sources, so paths derived from `import.meta.url`
 * (the root, `schemas/`, `dist/web`) stay right.
 */
export async function buildServer(options: ServerBuildOptions = {}): Promise<void> {
  const target = options.outdir ?? SERVER_DIST_DIR;
  const { build } = await import('esbuild');
  // Built beside the old build, then swapped in: a server starting meanwhile, or a second build running at
  // the same time (two test projects), always finds a whole build.
  const outdir = `${target}.${process.pid}.${Date.now()}`;
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: options.entryPoints ?? { main: 'src/server/main.ts' },
    outdir,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  fs.cpSync(MIGRATIONS_SOURCE, path.join(outdir, 'migrations'), { recursive: true });
  fs.writeFileSync(path.join(outdir, META_FILE), JSON.stringify(result.metafile));
  swapInDirectory(outdir, target);
}

/**
 * Puts a finished build in place of `target` by renames, so whoever reads `target` meanwhile finds a
 * whole build. When another build of the same sources got there first, its build is kept.
 */
export function swapInDirectory(fresh: string, target: string): void {
  const old = `${fresh}.old`;
  try {
    fs.renameSync(target, old);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    fs.renameSync(fresh, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    fs.rmSync(fresh, { recursive: true, force: true });
  }
  fs.rmSync(old, { recursive: true, force: true });
}

/** The Node flags `npm start` and `npm run serve` give the server (package.json), for tests and benchmarks that start it the same way. */
export function serveNodeFlags(): string[] {
  const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const [, ...args] = scripts.serve.split(/\s+/); // node --flag ... scripts/run-server.mjs
  return args.slice(0, args.findIndex((a) => !a.startsWith('--')));
}

/** True when dist/server is missing or older than a source it was built from (or the migrations). */
export function serverBuildIsStale(): boolean {
  const meta = path.join(SERVER_DIST_DIR, META_FILE);
  if (!fs.existsSync(meta) || !fs.existsSync(path.join(SERVER_DIST_DIR, 'main.js'))) return true;
  const builtAt = fs.statSync(meta).mtimeMs;
  const inputs = Object.keys((JSON.parse(fs.readFileSync(meta, 'utf8')) as { inputs: Record<string, unknown> }).inputs);
  return (
    newestMtime(MIGRATIONS_SOURCE) > builtAt ||
    inputs.some((file) => {
      const full = path.join(ROOT, file);
      return !fs.existsSync(full) || fs.statSync(full).mtimeMs > builtAt;
    })
  );
}

/** Builds the server into dist/server when it is stale. */
export async function ensureServerBuilt(log: (line: string) => void = console.log): Promise<void> {
  if (!serverBuildIsStale()) return;
  log('Building the server (first start or sources changed)...');
  await buildServer();
}
