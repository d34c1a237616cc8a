/**
 * The app server of the load-day tests and benches (tests/support/cluster.ts): the real server (main.ts,
 * compiled like `npm run serve`) with the signing test provider registered, as a deployment registers
 * its gateway at start. main.ts starts itself because this bundle is the process's entry file.
 */
import './signing-provider.js';
import '../../src/server/main.js';
