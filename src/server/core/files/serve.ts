import fs from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../errors.js';
import { attachmentHeader } from '../xlsx.js';
import { isInline } from '../../../shared/file-types.js';
import type { FileRow, FileStore } from './store.js';

export type ByteRange = { start: number; end: number };

/**
 * One `Range: bytes=a-b` (also `a-` and the suffix form `-n`) against a body of `size` bytes. Undefined when
 * there is no usable header (several ranges, other units: the whole body is sent, as RFC 9110 allows).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Streams a stored file: as a download (`attachment`, the original name) or for showing in place (`view`,
 * inline only for types a browser renders harmlessly). Range requests get 206 (video seeking, resumed downloads).
 */
export async function sendStoredFile(req: FastifyRequest, reply: FastifyReply, store: FileStore, f: FileRow, mode: 'attachment' | 'view') {
  const file = store.pathOf(f);
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat) throw new HttpError(404, '文件内容已丢失，请重新上传');
  const size = stat.size;
  const etag = `"${f.sha256}"`;
  const range = parseRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${size}`).send({ status: 416, message: '请求的范围超出文件大小' });
  }
  const disposition = attachmentHeader(f.original_name);
  reply
    .header('content-type', f.mime)
    .header('content-disposition', mode === 'view' && isInline(f.original_name) ? disposition.replace(/^attachment/, 'inline') : disposition)
    .header('access-control-expose-headers', 'content-disposition, content-range, accept-ranges')
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('cache-control', 'private, max-age=3600');
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  if (range) {
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1)
      .send(fs.createReadStream(file, range));
  }
  return reply.header('content-length', size).send(fs.createReadStream(file));
}
