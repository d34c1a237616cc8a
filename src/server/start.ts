/**
 * `npm start`: builds the web app when the build is missing or older than its sources, then serves.
 * Deployments build once with `npm run build` and run `npm run serve`.
 */
import { main } from './main.js';
import { ensureWebBuilt } from './web-build.js';

await ensureWebBuilt();
await main();
