/**
 * The zip container of an uploaded .xlsx, read from its central directory before anything is inflated:
 * which parts it has and how big each says it is (zip-bomb checks need no inflating), each part's real
 * inflated size (a part may lie about it), and a zip stream of chosen parts in a chosen order for exceljs'
 * streaming reader (which otherwise spools sheets to temporary files when they come before the shared
 * strings, as Excel writes them).
 */
import { Readable } from 'node:stream';
import { createInflateRaw, crc32 } from 'node:zlib';

/** One file in the zip, as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated (nothing else is accepted). */
  method: number;
  crc: number;
  compressedSize: number;
  /** The inflated size the entry declares. */
  size: number;
  /** Where the compressed bytes start in the buffer. */
  dataStart: number;
}

/** The buffer is not a zip this reader accepts (not a zip, damaged, encrypted, zip64, split). */
export class ZipUnreadable extends Error {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;
/** Flag bits: 0 encrypted, 11 UTF-8 names. */
const ENCRYPTED = 0x1;
const UTF8 = 0x800;

/** The entries of the zip by name (a name given twice: the last wins, as unzip tools do). */
export function zipEntries(buffer: Buffer): Map<string, ZipEntry> {
  const end = findEndRecord(buffer);
  const count = buffer.readUInt16LE(end + 10);
  const cdSize = buffer.readUInt32LE(end + 12);
  const cdOffset = buffer.readUInt32LE(end + 16);
  if (buffer.readUInt16LE(end + 4) !== 0 || buffer.readUInt16LE(end + 6) !== 0) throw new ZipUnreadable('split zip');
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw new ZipUnreadable('zip64');
  if (cdOffset + cdSize > end) throw new ZipUnreadable('central directory out of bounds');
  const entries = new Map<string, ZipEntry>();
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || buffer.readUInt32LE(at) !== CENTRAL) throw new ZipUnreadable('bad central directory');
    const flags = buffer.readUInt16LE(at + 8);
    const method = buffer.readUInt16LE(at + 10);
    const crc = buffer.readUInt32LE(at + 16);
    const compressedSize = buffer.readUInt32LE(at + 20);
    const size = buffer.readUInt32LE(at + 24);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const localOffset = buffer.readUInt32LE(at + 42);
    const name = buffer.toString(flags & UTF8 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (flags & ENCRYPTED) throw new ZipUnreadable('encrypted');
    if (method !== 0 && method !== 8) throw new ZipUnreadable(`compression method ${method}`);
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) throw new ZipUnreadable('zip64');
    if (localOffset + 30 > buffer.length || buffer.readUInt32LE(localOffset) !== LOCAL) throw new ZipUnreadable('bad local header');
    const dataStart = localOffset + 30 + buffer.readUInt16LE(localOffset + 26) + buffer.readUInt16LE(localOffset + 28);
    if (dataStart + compressedSize > buffer.length) throw new ZipUnreadable('entry out of bounds');
    // A stored entry's size is its compressed size: it cannot claim anything else.
    if (method === 0 && size !== compressedSize) throw new ZipUnreadable('stored entry with two sizes');
    entries.set(name, { name, method, crc, compressedSize, size, dataStart });
  }
  return entries;
}

function findEndRecord(buffer: Buffer): number {
  const last = buffer.length - 22;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT; at--) {
    if (buffer.readUInt32LE(at) === EOCD) return at;
  }
  throw new ZipUnreadable('not a zip');
}

/** Thrown by `inflate` when a part inflates to more than it may. */
export class InflateLimit extends Error {}

/**
 * Inflates one entry chunk by chunk (zlib works off the main thread, so the server keeps answering),
 * giving each chunk to `onChunk`; stops with InflateLimit as soon as the output passes `limit` bytes.
 * Answers the inflated size.
 */
export async function inflate(buffer: Buffer, entry: ZipEntry, limit: number, onChunk: (chunk: Buffer) => void = () => undefined): Promise<number> {
  const data = buffer.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  if (entry.method === 0) {
    if (data.length > limit) throw new InflateLimit(entry.name);
    onChunk(data);
    return data.length;
  }
  const inflater = createInflateRaw({ chunkSize: 64 * 1024 });
  let size = 0;
  try {
    inflater.end(data);
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new InflateLimit(entry.name);
      onChunk(chunk);
    }
  } catch (error) {
    // zlib's own errors (bad data) mean a damaged file; anything else (a limit, the caller's) goes on as it is.
    if (typeof (error as { errno?: unknown }).errno === 'number' && String((error as { code?: unknown }).code).startsWith('Z_')) {
      throw new ZipUnreadable(`${entry.name}: ${(error as Error).message}`);
    }
    throw error;
  } finally {
    inflater.destroy();
  }
  return size;
}

/** A stored entry made here (exceljs needs a shared-strings part to read sheets as they stream). */
export function storedEntry(name: string, content: Buffer): { entry: ZipEntry; buffer: Buffer } {
  return { entry: { name, method: 0, crc: crc32(content), compressedSize: content.length, size: content.length, dataStart: 0 }, buffer: content };
}

/**
 * A zip stream of these entries in this order, each with a local header that states its sizes (so a
 * streaming unzipper reads exactly those bytes), then an empty end record instead of the central
 * directory. The compressed bytes are the upload's own: nothing is inflated here.
 */
export function zipStream(parts: { entry: ZipEntry; buffer: Buffer }[]): Readable {
  function* chunks() {
    for (const { entry, buffer } of parts) {
      const name = Buffer.from(entry.name, 'utf8');
      const header = Buffer.alloc(30);
      header.writeUInt32LE(LOCAL, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(UTF8, 6);
      header.writeUInt16LE(entry.method, 8);
      header.writeUInt32LE(entry.crc, 14);
      header.writeUInt32LE(entry.compressedSize, 18);
      header.writeUInt32LE(entry.size, 22);
      header.writeUInt16LE(name.length, 26);
      yield header;
      yield name;
      yield buffer.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
    }
    // unzipper asks for a few bytes more than a record needs before it reads it, and fails (FILE_ENDED)
    // when the stream has ended meanwhile: the end record, then some padding it never reads.
    const end = Buffer.alloc(22 + 64);
    end.writeUInt32LE(EOCD, 0);
    yield end;
  }
  return Readable.from(chunks(), { objectMode: false });
}
