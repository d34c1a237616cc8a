import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Files the server ships beside its code (`assets/` at the repository root: fonts, demo media). This file
 * sits directly under src/server, like the bundle under dist/server, so the path is right for both.
 */
export const ASSETS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../assets');
