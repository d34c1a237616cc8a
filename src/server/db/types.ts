/**
 * The whole database as Kysely sees it. The db layer knows no feature: each area declares its tables next
 * to its code, and the composition root (src/server/app.ts) joins them here by declaration merging
 * (`declare module './db/types.js' { interface DB extends CoreTables, ... {} }`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging
export interface DB {}
