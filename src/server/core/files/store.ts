import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type Selectable } from 'kysely';
import type { Database } from '../../db/database.js';
import { HttpError } from '../../errors.js';
import { hasAnyPermission, type SessionUser } from '../auth/session-user.js';
import { formatBytes } from '../../../shared/file-types.js';
import type { FileTables } from './tables.js';
import { likeContains } from '../paging.js';

export type FileRow = Selectable<FileTables['files']>;

/** Reads any file, whoever uploaded it. */
export const READ_ALL_FILES = 'file:all';
/** Files of these modules are shown to every signed-in user (avatars appear next to names everywhere). */
const OPEN_MODULES = new Set(['avatar']);

export interface NewFile {
  originalName: string;
  mime: string;
  moduleName?: string | null;
  tag?: string | null;
  ownerId: number | null;
  /** Bytes beyond this abort the write with a 413. */
  maxBytes: number;
}

/** What the API answers for an uploaded file. */
export function fileDto(f: FileRow) {
  return { id: f.id, name: f.original_name, size: f.size, mime: f.mime, moduleName: f.module_name, tag: f.tag, createTime: f.created_at, url: `/api/file/view?id=${f.id}` };
}

/**
 * Uploaded files on disk under `<DATA_DIR>/files/<yyyy>/<mm>/<uuid>`: the stored name is generated, so no
 * part of what the client sent ever reaches a path. Bytes are streamed (hashed on the way), never buffered.
 */
export class FileStore {
  readonly root: string;
  constructor(
    private readonly database: Database,
    dataDir: string,
    /** The permission that lists a module's records (its x-permissions.list, `<module>:list` by default). */
    private readonly listPermissionOf: (moduleName: string) => string = (m) => `${m}:list`,
  ) {
    this.root = path.join(dataDir, 'files');
  }

  pathOf(f: Pick<FileRow, 'storage_name'>): string {
    return path.join(this.root, f.storage_name);
  }

  /** Streams `source` to disk and records it; the partial file is removed on any failure. */
  async save(source: Readable & { truncated?: boolean }, meta: NewFile): Promise<FileRow> {
    const now = new Date();
    const storageName = `${now.getFullYear()}/${String(now.getMonth() + 1).padStart(2, '0')}/${crypto.randomUUID()}`;
    const target = path.join(this.root, storageName);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const hash = crypto.createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > meta.maxBytes) return done(new HttpError(413, `文件大小不能超过${formatBytes(meta.maxBytes)}`));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, fs.createWriteStream(target, { flags: 'wx' }));
      // The multipart parser stops at its own limit and marks the stream truncated instead of failing.
      if (source.truncated) throw new HttpError(413, `文件大小不能超过${formatBytes(meta.maxBytes)}`);
      return await this.database.db
        .insertInto('files')
        .values({ storage_name: storageName, original_name: meta.originalName, mime: meta.mime, size, sha256: hash.digest('hex'), module_name: meta.moduleName ?? null, tag: meta.tag ?? null, owner_id: meta.ownerId })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      await fs.promises.rm(target, { force: true });
      throw error;
    }
  }

  async get(id: unknown): Promise<FileRow> {
    const n = Number(id);
    if (!Number.isInteger(n) || n <= 0) throw new HttpError(400, '请指定文件', { errors: [{ field: 'id', message: '请指定文件' }] });
    const row = await this.database.db.selectFrom('files').selectAll().where('id', '=', n).executeTakeFirst();
    if (!row) throw new HttpError(404, '文件不存在或已被删除');
    return row;
  }

  /** Its uploader, a superuser or file:all, whoever may list the module of a module's file, anyone for avatars. */
  canRead(user: SessionUser, f: FileRow): boolean {
    if (f.owner_id === user.id || hasAnyPermission(user, [READ_ALL_FILES])) return true;
    if (!f.module_name) return false;
    return OPEN_MODULES.has(f.module_name) || hasAnyPermission(user, [this.listPermissionOf(f.module_name)]);
  }

  async readable(user: SessionUser, id: unknown): Promise<FileRow> {
    const f = await this.get(id);
    // A file the caller may not read is answered like a missing one: its existence is not told.
    if (!this.canRead(user, f)) throw new HttpError(404, '文件不存在或已被删除');
    return f;
  }

  async update(id: number, set: { module_name?: string | null; tag?: string | null }): Promise<FileRow> {
    return this.database.db.updateTable('files').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** One page of a user's own files, newest first; `types` limits the extensions (e.g. pictures). */
  async listOwn(ownerId: number, opts: { offset: number; limit: number; blurry?: string; types?: Readonly<Record<string, string>> }) {
    let q = this.database.db.selectFrom('files').where('owner_id', '=', ownerId);
    if (opts.types) q = q.where('mime', 'in', [...new Set(Object.values(opts.types))]);
    if (opts.blurry) {
      const like = likeContains(opts.blurry);
      q = q.where((eb) => eb.or([eb('original_name', 'ilike', like), eb('tag', 'ilike', like), eb('module_name', 'ilike', like)]));
    }
    const { total } = await q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
    const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(opts.limit).offset(opts.offset).execute();
    return { content: rows.map(fileDto), totalElements: total };
  }

  /** Deletes the records and their bytes. */
  async remove(files: FileRow[]): Promise<void> {
    if (!files.length) return;
    await this.database.db.deleteFrom('files').where('id', 'in', files.map((f) => f.id)).execute();
    await Promise.all(files.map((f) => fs.promises.rm(this.pathOf(f), { force: true })));
  }
}
