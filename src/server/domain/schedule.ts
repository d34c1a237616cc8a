import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs a periodic domain job (reminders computed from records' dates): shortly after the start, then at
 * a fixed interval; a failure is logged and the next run tries again. Answers the function that stops it.
 */
export function schedulePeriodic(name: string, run: () => Promise<number>, log: FastifyBaseLogger, options: { firstMs?: number; everyMs?: number } = {}): () => void {
  const go = () =>
    void run().then(
      (n) => n && log.info({ job: name, count: n }, `${name} done`),
      (err: unknown) => log.warn({ err, job: name }, `${name} failed`),
    );
  const first = setTimeout(go, options.firstMs ?? 20_000);
  const every = setInterval(go, options.everyMs ?? 6 * 60 * 60_000);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
