import { ConfigError, DEMO_ADMIN_PASSWORD, loadConfig, type AppConfig } from './config.js';
import { startServer } from './server.js';
import { DEMO_ACCOUNTS, DEMO_USER_PASSWORD } from './seed/demo.js';

const SHUTDOWN_GRACE_MS = 10_000;

function banner(url: string, config: AppConfig): string {
  const lines = [
    '',
    `  党建工作管理系统 is running: ${url}/web/`,
    `  database: ${config.databaseUrl ? 'PostgreSQL server' : `embedded PostgreSQL (PGlite) in ${config.dataDir}`}`,
    `  administrator: admin / ${config.adminPassword === DEMO_ADMIN_PASSWORD ? DEMO_ADMIN_PASSWORD : '(ADMIN_PASSWORD)'}`,
  ];
  if (config.demoData) {
    lines.push(`  demo accounts (password ${DEMO_USER_PASSWORD}): ${DEMO_ACCOUNTS.map((a) => a.username).join(', ')}`);
  }
  return lines.join('\n') + '\n';
}

export async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  let started;
  try {
    started = await startServer(config);
  } catch (error) {
    console.error(`Start failed: ${(error as Error).message}`);
    process.exit(1);
  }
  const { app, url } = started;

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    app.close().then(
      () => {
        app.log.info('stopped cleanly');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // The banner last: whoever waits for it (a supervisor, a test) may signal at once, and until the handlers
  // above are on, a signal kills the process without a clean stop.
  process.stdout.write(banner(url, config));
}

const isEntry = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (isEntry) void main();
