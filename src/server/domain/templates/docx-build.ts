/**
 * A small Word document written in code (the demo templates, tests): paragraphs with alignment, size and
 * bold, and tables; the text may hold placeholders. The smallest package Word opens: content types, the
 * package relationship, the document.
 */
import PizZip from 'pizzip';

export type BuildBlock =
  | { text: string; align?: 'left' | 'center' | 'right'; size?: number; bold?: boolean; indent?: boolean }
  | { table: string[][] };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function run(text: string, size?: number, bold?: boolean): string {
  const props = `${bold ? '<w:b/>' : ''}${size ? `<w:sz w:val="${size * 2}"/>` : ''}<w:rFonts w:eastAsia="宋体"/>`;
  return `<w:r><w:rPr>${props}</w:rPr><w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
}

function para(b: Extract<BuildBlock, { text: string }>): string {
  const props = `${b.align && b.align !== 'left' ? `<w:jc w:val="${b.align}"/>` : ''}${b.indent ? '<w:ind w:firstLineChars="200"/>' : ''}`;
  return `<w:p>${props ? `<w:pPr>${props}</w:pPr>` : ''}${b.text ? run(b.text, b.size, b.bold) : ''}</w:p>`;
}

function table(rows: string[][]): string {
  const border = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map((s) => `<w:${s} w:val="single" w:sz="4" w:space="0" w:color="000000"/>`).join('');
  const tr = rows.map((r) => `<w:tr>${r.map((c) => `<w:tc><w:tcPr><w:tcW w:w="0" w:type="auto"/></w:tcPr><w:p>${run(c)}</w:p></w:tc>`).join('')}</w:tr>`).join('');
  return `<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblBorders>${border}</w:tblBorders></w:tblPr>${tr}</w:tbl>`;
}

export function buildDocx(blocks: BuildBlock[]): Buffer {
  const zip = new PizZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  const body = blocks.map((b) => ('table' in b ? table(b.table) : para(b))).join('');
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/></w:sectPr></w:body></w:document>`);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}
