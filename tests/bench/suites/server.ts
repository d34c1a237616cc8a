import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { load, median, startServerProcess, type BenchResult } from '../lib.js';

/** Server start time (empty and initialised database) and GET /api/health throughput against a bare route. */
export async function serverSuite(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const empty: number[] = [];
  const seeded: number[] = [];
  for (let i = 0; i < 3; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-'));
    try {
      const first = await startServerProcess({ DATA_DIR: dataDir });
      empty.push(first.startMs);
      await first.stop();
      const second = await startServerProcess({ DATA_DIR: dataDir });
      seeded.push(second.startMs);
      await second.stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  results.push({ suite: 'server', name: 'start on an empty database (embedded, with demo data)', value: Math.round(median(empty)), unit: 'ms' });
  results.push({ suite: 'server', name: 'start on an initialised database (embedded)', value: Math.round(median(seeded)), unit: 'ms' });

  const bare = Fastify();
  bare.get('/api/health', async () => ({ status: 'UP' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const barePort = (bare.server.address() as { port: number }).port;
  const baseline = await load(`http://127.0.0.1:${barePort}/api/health`);
  await bare.close();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-bench-'));
  const server = await startServerProcess({ DATA_DIR: dataDir, DEMO_DATA: 'false' });
  try {
    const health = await load(`http://127.0.0.1:${server.port}/api/health`);
    results.push({
      suite: 'server',
      name: 'GET /api/health throughput (SELECT 1 on the embedded database)',
      value: Math.round(health.requestsPerSecond),
      unit: 'req/s',
      ratio: Number((health.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)),
      baseline: `bare Fastify route ${Math.round(baseline.requestsPerSecond)} req/s`,
      note: `p50 ${health.p50} ms, p99 ${health.p99} ms`,
    });
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}
