import type ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

/** RFC 5987 content-disposition so Chinese file names survive every browser. */
export function attachmentHeader(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export async function sendXlsx(reply: FastifyReply, book: ExcelJS.Workbook, filename: string) {
  const buffer = Buffer.from(await book.xlsx.writeBuffer());
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', attachmentHeader(filename))
    .header('access-control-expose-headers', 'content-disposition')
    .send(buffer);
}
