/**
 * What may be uploaded, and how each type is served: one list for the server (upload checks, content
 * types) and the web uploader (the file chooser's accept list, the size check before sending).
 */

/** Upload size limit in bytes (spec: a size limit; large videos for party-school courses fit). */
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
import { ownValue } from './own.js';
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

/** Extension → the content type the file is served with (never the type the client claimed). */
export const FILE_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  wps: 'application/vnd.ms-works',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
};

/** Raster images: avatars and the picture library. SVG can carry scripts, so it is never one of them. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = Object.fromEntries(
  ['jpg', 'jpeg', 'png', 'gif', 'webp'].map((ext) => [ext, ownValue(FILE_TYPES, ext)!]),
);

/** Packages and dumps handed to operations through the deploy and database upload endpoints. */
export const OPERATIONS_TYPES: Readonly<Record<string, string>> = {
  zip: FILE_TYPES.zip,
  rar: FILE_TYPES.rar,
  '7z': ownValue(FILE_TYPES, '7z')!,
  gz: 'application/gzip',
  tar: 'application/x-tar',
  sql: 'application/sql',
};

/** Types a browser may show in place (`/api/file/view`); everything else, SVG included, is a download. */
const INLINE = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'pdf', 'txt', 'csv', 'mp4', 'webm', 'mp3', 'm4a']);

/** The lower-case extension without the dot, '' when there is none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

export function isInline(name: string): boolean {
  return INLINE.has(extensionOf(name));
}

/**
 * The client's file name reduced to a harmless display name: the last path segment only (either slash),
 * no control or bidi-override characters, no leading dots, at most 200 characters, never empty.
 */
export function sanitizeFileName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').replace(/^[.\s]+/, '').trim();
  if (!cleaned) return 'file';
  if (cleaned.length <= 200) return cleaned;
  const ext = extensionOf(cleaned);
  return ext && ext.length < 20 ? `${cleaned.slice(0, 199 - ext.length)}.${ext}` : cleaned.slice(0, 200);
}

/** Human-readable size for messages: 200MB, 1.5KB. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let n = bytes;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${Number.isInteger(n) ? n : n.toFixed(1)}${units[i]}`;
}
