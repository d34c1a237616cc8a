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

/**
 * Who may read a file filed under a module of the schema runtime (wired in by the composition root):
 * true or false when the module is one, undefined when it is not (then its list permission decides).
 */
export type ModuleFileAccess = (user: SessionUser, file: Pick<FileRow, 'id' | 'access_key' | 'module_name'>) => Promise<boolean | undefined>;

/** A file's key: 32 hex digits (a random UUID's), what URLs name a file by. */
const ACCESS_KEY = /^[0-9a-f]{32}$/;

/** The URL that shows a file: by its key, never its sequential id. */
export const fileUrl = (f: Pick<FileRow, 'access_key'>) => `/api/file/view?id=${f.access_key}`;

/** What the API answers for an uploaded file: `id` numbers it for its owner's lists, `key` and `url` address it. */
export function fileDto(f: FileRow) {
  return { id: f.id, key: f.access_key, name: f.original_name, size: f.size, mime: f.mime, moduleName: f.module_name, tag: f.tag, createTime: f.created_at, url: fileUrl(f) };
}

/** The file a stored reference names (`/api/file/view?id=<key or number>&name=...`): the key or number, or null. */
export function fileRefToken(ref: string | null | undefined): string | null {
  const m = /[?&]id=([0-9a-f]{32}|\d+)(&|$)/.exec(ref ?? '');
  return m ? m[1] : null;
}

/** The column and value that find a file by a key or (legacy) number. */
export function fileLookup(token: string): ['access_key', string] | ['id', number] {
  return /^\d+$/.test(token) ? ['id', Number(token)] : ['access_key', token];
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
    /** Record-level access to files of runtime modules (the record that refers to the file, in scope). */
    private readonly moduleFileAccess?: ModuleFileAccess,
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
        .values({ access_key: crypto.randomBytes(16).toString('hex'), storage_name: storageName, original_name: meta.originalName, mime: meta.mime, size, sha256: hash.digest('hex'), module_name: meta.moduleName ?? null, tag: meta.tag ?? null, owner_id: meta.ownerId })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      await fs.promises.rm(target, { force: true });
      throw error;
    }
  }

  /** A file by its key, or by its number (internal callers; see readable for what URLs may use). */
  async get(id: unknown): Promise<FileRow> {
    const token = typeof id === 'number' ? String(id) : typeof id === 'string' ? id.trim() : '';
    if (!ACCESS_KEY.test(token) && !(/^\d{1,9}$/.test(token) && Number(token) > 0)) throw new HttpError(400, '请指定文件', { errors: [{ field: 'id', message: '请指定文件' }] });
    const [column, value] = fileLookup(token);
    const row = await this.database.db.selectFrom('files').selectAll().where(column, '=', value as never).executeTakeFirst();
    if (!row) throw new HttpError(404, '文件不存在或已被删除');
    return row;
  }

  /**
   * Its uploader, a superuser or file:all; anyone for avatars; for a file of a runtime module, whoever may
   * view a record that refers to it (the view permission and the record in their data scope); for other
   * modules' files, whoever may list the module.
   */
  async canRead(user: SessionUser, f: FileRow): Promise<boolean> {
    if (f.owner_id === user.id || hasAnyPermission(user, [READ_ALL_FILES])) return true;
    if (!f.module_name) return false;
    if (OPEN_MODULES.has(f.module_name)) return true;
    const byRecord = await this.moduleFileAccess?.(user, f);
    return byRecord ?? hasAnyPermission(user, [this.listPermissionOf(f.module_name)]);
  }

  /**
   * A file the caller may read, named by its key. A sequential number is accepted only from those who could
   * list the file anyway (its uploader, file:all), so counting through numbers finds nothing.
   */
  async readable(user: SessionUser, id: unknown): Promise<FileRow> {
    const f = await this.get(id);
    const byNumber = !(typeof id === 'string' && ACCESS_KEY.test(id.trim()));
    const privileged = f.owner_id === user.id || hasAnyPermission(user, [READ_ALL_FILES]);
    // A file the caller may not read is answered like a missing one: its existence is not told.
    if ((byNumber && !privileged) || !(await this.canRead(user, f))) throw new HttpError(404, '文件不存在或已被删除');
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
