import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout (or the deployment directory): two levels above this file, in the sources and in dist/server. */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_DIST_DIR = path.join(ROOT_DIR, 'dist', 'web');
export const SCHEMAS_DIR = path.join(ROOT_DIR, 'schemas');
/** Files the server ships beside its code: fonts and demo media (assets/pschool). */
export const ASSETS_DIR = path.join(ROOT_DIR, 'assets');
