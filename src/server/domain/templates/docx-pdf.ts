/**
 * A filled Word document as a PDF (模板管理's preview and PDF download): the body's paragraphs (alignment,
 * size and bold of their first run) and tables (a grid, cells wrapped), laid out on A4 with the CJK font of
 * core/pdf-cjk.ts. Legible, not pixel-perfect Word: images, headers and section layouts are left out.
 */
import { ownValue } from '../../../shared/own.js';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import PizZip from 'pizzip';
import { cjkFont, wrapText } from '../../core/pdf-cjk.js';

export interface DocParagraph {
  kind: 'p';
  text: string;
  align: 'left' | 'center' | 'right';
  /** Points. */
  size: number;
  bold: boolean;
  /** First-line indent in points. */
  indent: number;
}
export interface DocTable {
  kind: 'table';
  rows: string[][];
}
export type DocBlock = DocParagraph | DocTable;

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&apos;': "'" };
const unescape = (s: string) => s.replace(/&(lt|gt|amp|quot|apos);/g, (e) => ownValue(ENTITIES, e) ?? e);

/** The text of a piece of WordprocessingML: runs' text, tabs and breaks. */
function textOf(xml: string): string {
  let out = '';
  // Tab stops of the paragraph's properties are not text.
  for (const [, tag, body] of xml.replace(/<w:pPr>[\s\S]*?<\/w:pPr>/g, '').matchAll(/<w:(t|tab|br|cr)(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/w:\1>)/g)) {
    out += tag === 't' ? unescape(body ?? '') : tag === 'tab' ? '　' : '\n';
  }
  return out;
}

function paragraph(xml: string): DocParagraph {
  const jc = /<w:jc w:val="(\w+)"/.exec(xml)?.[1];
  const sz = /<w:sz w:val="(\d+)"/.exec(xml)?.[1];
  const ind = /<w:ind [^>]*w:firstLine(?:Chars)?="(\d+)"/.exec(xml);
  const size = sz ? Number(sz) / 2 : 12;
  return {
    kind: 'p', text: textOf(xml),
    align: jc === 'center' ? 'center' : jc === 'right' || jc === 'end' ? 'right' : 'left',
    size, bold: /<w:b(?:\s+w:val="(?:1|true)")?\s*\/>/.test(xml),
    indent: ind ? (ind[0].includes('Chars') ? (Number(ind[1]) / 100) * size : Number(ind[1]) / 20) : 0,
  };
}

/** The blocks of a document's body in order. */
export function docxBlocks(bytes: Buffer): DocBlock[] {
  const xml = new PizZip(bytes).file('word/document.xml')?.asText() ?? '';
  const body = /<w:body>([\s\S]*)<\/w:body>/.exec(xml)?.[1] ?? '';
  const blocks: DocBlock[] = [];
  for (const [whole, tag] of body.matchAll(/<w:(tbl|p)\b[^>]*?(?:\/>|>[\s\S]*?<\/w:\1>)/g)) {
    if (tag === 'p') blocks.push(paragraph(whole));
    else {
      const rows = [...whole.matchAll(/<w:tr\b[\s\S]*?<\/w:tr>/g)].map(([tr]) =>
        [...tr.matchAll(/<w:tc\b[\s\S]*?<\/w:tc>/g)].map(([tc]) => [...tc.matchAll(/<w:p\b[^>]*?(?:\/>|>[\s\S]*?<\/w:p>)/g)].map(([p]) => textOf(p)).join('\n')));
      blocks.push({ kind: 'table', rows });
    }
  }
  return blocks;
}

const A4: [number, number] = [595, 842];
const MARGIN = 60;
const WIDTH = A4[0] - 2 * MARGIN;

class Layout {
  page!: PDFPage;
  y = 0;
  constructor(private readonly doc: PDFDocument, readonly font: PDFFont) {
    this.newPage();
  }
  newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  /** Room for `height` more points on this page, or a new page. */
  need(height: number) {
    if (this.y - height < MARGIN) this.newPage();
  }
}

function drawParagraph(l: Layout, p: DocParagraph) {
  const lineHeight = p.size * 1.6;
  if (!p.text.trim()) {
    l.need(lineHeight);
    l.y -= lineHeight;
    return;
  }
  const lines = wrapText(l.font, p.text, p.size, WIDTH - p.indent);
  lines.forEach((line, i) => {
    l.need(lineHeight);
    const w = l.font.widthOfTextAtSize(line, p.size);
    const x = p.align === 'center' ? (A4[0] - w) / 2 : p.align === 'right' ? A4[0] - MARGIN - w : MARGIN + (i === 0 ? p.indent : 0);
    l.y -= lineHeight;
    l.page.drawText(line, { x, y: l.y + p.size * 0.4, size: p.size, font: l.font, color: rgb(0.1, 0.1, 0.1) });
    // Bold by overprinting a hair to the right (the embedded font has one weight).
    if (p.bold) l.page.drawText(line, { x: x + 0.4, y: l.y + p.size * 0.4, size: p.size, font: l.font, color: rgb(0.1, 0.1, 0.1) });
  });
}

function drawTable(l: Layout, t: DocTable) {
  const columns = Math.max(1, ...t.rows.map((r) => r.length));
  const cellWidth = WIDTH / columns;
  const size = 10.5;
  const lineHeight = size * 1.5;
  const pad = 4;
  for (const row of t.rows) {
    const cells = Array.from({ length: columns }, (_, i) => wrapText(l.font, row[i] ?? '', size, cellWidth - 2 * pad));
    const height = Math.max(...cells.map((c) => c.length)) * lineHeight + 2 * pad;
    l.need(height);
    cells.forEach((lines, i) => {
      const x = MARGIN + i * cellWidth;
      l.page.drawRectangle({ x, y: l.y - height, width: cellWidth, height, borderColor: rgb(0.3, 0.3, 0.3), borderWidth: 0.6 });
      lines.forEach((line, k) => l.page.drawText(line, { x: x + pad, y: l.y - pad - (k + 1) * lineHeight + size * 0.45, size, font: l.font }));
    });
    l.y -= height;
  }
  l.y -= 8;
}

/**
 * The PDF of one or more (filled) Word documents, each from a new page: one font subset for all of them, so a
 * bulk job's single file carries the font once.
 */
export async function docxToPdf(files: Buffer | Buffer[], title: string): Promise<Uint8Array> {
  const docs = (Array.isArray(files) ? files : [files]).map(docxBlocks);
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreator('党建工作管理系统');
  const texts = docs.flat().flatMap((b) => (b.kind === 'p' ? [b.text] : b.rows.flat()));
  const layout = new Layout(doc, await cjkFont(doc, texts));
  docs.forEach((blocks, i) => {
    if (i) layout.newPage();
    for (const b of blocks) (b.kind === 'p' ? drawParagraph(layout, b) : drawTable(layout, b));
  });
  return doc.save();
}
