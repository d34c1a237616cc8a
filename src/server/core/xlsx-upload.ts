/**
 * The multipart upload of a spreadsheet import (module records, users, payroll): one .xlsx file and the
 * mode, with the workbook's container checked (zip bombs refused with 400) and the row limit read from
 * the system settings.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ImportMode } from '../../shared/module-schema/api.js';
import { HttpError } from '../errors.js';
import { DEFAULT_IMPORT_MAX_ROWS, IMPORT_MAX_ROWS_KEY, XlsxFile, XlsxUnreadable } from './xlsx-read.js';

export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/** Multipart parsing for a route plugin with import routes (once per plugin): one file of at most IMPORT_MAX_BYTES. */
export async function registerImportMultipart(app: FastifyInstance): Promise<void> {
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 12 } });
}

export interface ImportUpload {
  buffer: Buffer;
  fileName: string;
  mode: ImportMode;
  /** The checked workbook; undefined when the file is no readable .xlsx (each importer says so its own way). */
  book?: XlsxFile;
  /** The most data rows one import may hold (system setting `importMaxRows`). */
  maxRows: number;
}

/** Reads the multipart import request: one .xlsx file and the mode (a form field or the query). */
export async function readImportUpload(req: FastifyRequest): Promise<ImportUpload> {
  if (!req.isMultipart()) throw new HttpError(400, '请选择要导入的文件', { errors: [{ field: 'file', message: '请选择要导入的 .xlsx 文件' }] });
  let file: { buffer: Buffer; fileName: string } | undefined;
  let mode = (req.query as { mode?: string }).mode;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'mode' && typeof part.value === 'string') mode = part.value;
      } else if (!file) {
        file = { buffer: await part.toBuffer(), fileName: part.filename ?? '' };
      } else part.file.resume();
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, `文件大小不能超过${IMPORT_MAX_BYTES / 1024 / 1024}MB`);
    throw new HttpError(400, '上传的内容不完整，请重试');
  }
  if (!file) throw new HttpError(400, '请选择要导入的文件', { errors: [{ field: 'file', message: '请选择要导入的 .xlsx 文件' }] });
  if (!/\.xlsx$/i.test(file.fileName)) throw new HttpError(400, '只能导入 .xlsx 文件', { errors: [{ field: 'file', message: '只能导入 .xlsx 文件（请使用导入模板）' }] });
  mode ??= 'partial';
  if (mode !== 'partial' && mode !== 'all') throw new HttpError(400, '导入方式不正确', { errors: [{ field: 'mode', message: '导入方式只能是 partial（导入正确的行）或 all（全部正确才导入）' }] });
  const maxRows = Math.floor(await req.server.services.config.number(IMPORT_MAX_ROWS_KEY, DEFAULT_IMPORT_MAX_ROWS));
  let book: XlsxFile | undefined;
  try {
    book = await XlsxFile.open(file.buffer, maxRows);
  } catch (error) {
    if (!(error instanceof XlsxUnreadable)) throw error;
  }
  return { ...file, mode, book, maxRows };
}
