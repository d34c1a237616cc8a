/**
 * Chinese text in PDFs made with pdf-lib (certificates, study documents, documents rendered from templates).
 * pdf-lib's standard fonts have no Chinese, so each file embeds the GB 2312 font of assets/pschool cut down
 * to the characters the file uses (subset-font, HarfBuzz): a page of text is a few tens of KB.
 */
import fs from 'node:fs';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { rgb, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import subsetFont from 'subset-font';
import { ASSETS_DIR } from '../paths.js';

let fullFont: Promise<Buffer> | undefined;
const fontFile = () => (fullFont ??= fs.promises.readFile(path.join(ASSETS_DIR, 'pschool', 'cjk-gb2312.ttf')));

/** The CJK font embedded in `doc`, holding the characters of `texts` (and the digits). */
export async function cjkFont(doc: PDFDocument, texts: string[]): Promise<PDFFont> {
  doc.registerFontkit(fontkit);
  const chars = [...new Set(texts.join('') + '0123456789')].join('');
  const subset = await subsetFont(await fontFile(), chars, { targetFormat: 'truetype' });
  return doc.embedFont(subset, { subset: false });
}

/** Draws text centred on the page at height y. */
export function drawCentred(page: PDFPage, font: PDFFont, text: string, y: number, size: number, color = rgb(0.1, 0.1, 0.1)): void {
  const width = font.widthOfTextAtSize(text, size);
  page.drawText(text, { x: (page.getWidth() - width) / 2, y, size, font, color });
}

const NO_LINE_START = '，。、；：？！”’）》】…';

/** Splits text into lines that fit `width` at `size` (Chinese wraps anywhere; line breaks in the text are kept). */
export function wrapText(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const ch of paragraph) {
      // Closing punctuation stays at the end of its line (禁则): it may hang past the margin.
      if (line && font.widthOfTextAtSize(line + ch, size) > width && !NO_LINE_START.includes(ch)) {
        lines.push(line);
        line = ch;
      } else line += ch;
    }
    lines.push(line);
  }
  return lines;
}
