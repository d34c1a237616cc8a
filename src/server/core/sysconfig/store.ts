import type { Database } from '../../db/database.js';

/**
 * Read access to system configuration for server code, cached for a few seconds (it is read on every
 * login and password change). Writers call `invalidate()`; other app servers see a change within the TTL.
 */
export class ConfigStore {
  private cache: Map<string, string> | undefined;
  private loadedAt = 0;
  constructor(
    private readonly database: Database,
    private readonly ttlMs = 5000,
  ) {}

  async all(): Promise<Map<string, string>> {
    if (!this.cache || Date.now() - this.loadedAt > this.ttlMs) {
      const rows = await this.database.db.selectFrom('sys_config').select(['config_key', 'config_value']).execute();
      this.cache = new Map(rows.map((r) => [r.config_key, r.config_value]));
      this.loadedAt = Date.now();
    }
    return this.cache;
  }

  async get(key: string, fallback = ''): Promise<string> {
    return (await this.all()).get(key) ?? fallback;
  }

  async flag(key: string, fallback = false): Promise<boolean> {
    const value = (await this.all()).get(key);
    return value === undefined ? fallback : value.trim().toLowerCase() === 'true';
  }

  async number(key: string, fallback: number): Promise<number> {
    const value = Number((await this.all()).get(key));
    return Number.isFinite(value) && value > 0 ? value : fallback;
  }

  invalidate(): void {
    this.cache = undefined;
  }
}
