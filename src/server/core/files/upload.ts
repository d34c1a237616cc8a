import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../../errors.js';
import { FILE_TYPES, MAX_UPLOAD_BYTES, extensionOf, formatBytes, sanitizeFileName } from '../../../shared/file-types.js';
import { FileStore, type FileRow } from './store.js';

const MODULE_NAME = /^[A-Za-z][\w-]{0,49}$/;

/** Multipart parsing for one route plugin (each plugin that accepts uploads registers it once). */
export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 5, fields: 20, fieldSize: 10_000, parts: 30 } });
}

export function fileStoreOf(app: FastifyInstance): FileStore {
  const { database, appConfig, listPermissionOf, moduleFileAccess } = app.services;
  return new FileStore(database, appConfig.dataDir, listPermissionOf, moduleFileAccess);
}

export interface UploadOptions {
  ownerId: number | null;
  /** Extension → served content type; defaults to every allowed type. */
  types?: Readonly<Record<string, string>>;
  maxBytes?: number;
  /** Forces the module (avatar, deploy, ...) instead of the client's `moduleName` field. */
  moduleName?: string;
}

export interface Upload {
  file: FileRow;
  fields: Record<string, string>;
}

/**
 * Reads a multipart request with one file (field `file`, or the first file part) and the optional fields
 * `moduleName` and `tag`, in any order. The file is streamed to disk as it arrives; a forbidden type is
 * refused before a byte is stored (415), an oversized one when it crosses the limit (413).
 */
export async function receiveUpload(req: FastifyRequest, store: FileStore, opts: UploadOptions): Promise<Upload> {
  if (!req.isMultipart()) throw new HttpError(400, '请选择要上传的文件', { errors: [{ field: 'file', message: '请选择要上传的文件' }] });
  const types = opts.types ?? FILE_TYPES;
  const maxBytes = opts.maxBytes ?? MAX_UPLOAD_BYTES;
  const fields: Record<string, string> = {};
  let file: FileRow | undefined;
  let refusal: HttpError | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes } })) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (file || refusal) {
        part.file.resume(); // one file per request: drain the others
        continue;
      }
      const originalName = sanitizeFileName(part.filename ?? '');
      const ext = extensionOf(originalName);
      const mime = types[ext];
      if (!mime) {
        part.file.resume();
        refusal = new HttpError(415, `不支持的文件类型：${ext ? `.${ext}` : '无扩展名'}`, { errors: [{ field: 'file', message: `不支持的文件类型，允许：${Object.keys(types).join('、')}` }] });
        continue;
      }
      file = await store.save(part.file, { originalName, mime, ownerId: opts.ownerId, maxBytes, moduleName: opts.moduleName ?? null });
    }
  } catch (error) {
    if (file) await store.remove([file]);
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, `文件大小不能超过${formatBytes(maxBytes)}`);
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, '上传的内容不完整，请重试');
  }
  if (refusal) throw refusal;
  if (!file) throw new HttpError(400, '请选择要上传的文件', { errors: [{ field: 'file', message: '请选择要上传的文件' }] });

  // moduleName and tag may follow the file in the form: checked and recorded now.
  const moduleName = opts.moduleName ?? (fields.moduleName?.trim() || (req.query as { moduleName?: string }).moduleName?.trim() || null);
  const tag = (fields.tag ?? (req.query as { tag?: string }).tag ?? '').trim() || null;
  const bad = moduleName && !MODULE_NAME.test(moduleName) ? { field: 'moduleName', message: '模块名称的格式不正确' } : tag && tag.length > 100 ? { field: 'tag', message: '标签不能超过100个字符' } : undefined;
  if (bad) {
    await store.remove([file]);
    throw new HttpError(400, bad.message, { errors: [bad] });
  }
  if (moduleName !== file.module_name || tag !== file.tag) {
    file = await store.update(file.id, { module_name: moduleName, tag });
  }
  return { file, fields };
}
