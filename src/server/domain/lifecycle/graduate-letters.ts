/**
 * The letters of a graduate batch as one PDF (毕业生批量转出, issue 41 §3): every transfer the batch created, in
 * letter-number order, one A4 page each — stub, letter and receipt with the texts of the transfer-out
 * letter (shared/transfer/letter.ts letterTexts, filled by transfer/letter-print.ts letterData), so the
 * print page, the .xlsx and this PDF cannot drift apart.
 */
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { letterTexts, type LetterTexts } from '../../../shared/transfer/letter.js';
import { cjkFont, drawCentred, wrapText } from '../../core/pdf-cjk.js';

const GREY = rgb(0.4, 0.4, 0.4);

function drawLetter(page: PDFPage, font: PDFFont, t: LetterTexts, cancelled: boolean): void {
  let y = 800;
  const left = 60;
  const width = 475;
  const para = (text: string, size = 11, indent = true) => {
    for (const line of wrapText(font, indent ? `　　${text}` : text, size, width)) {
      page.drawText(line, { x: left, y, size, font });
      y -= size + 6;
    }
  };
  const right = (text: string, size = 11) => {
    page.drawText(text, { x: left + width - font.widthOfTextAtSize(text, size), y, size, font });
    y -= size + 6;
  };
  const cut = (label: string) => {
    y -= 4;
    drawCentred(page, font, `- - - - - - - - - - - - - - - - ${label} - - - - - - - - - - - - - - - -`, y, 8, GREY);
    y -= 20;
  };
  const title = (text: string) => {
    drawCentred(page, font, text + (cancelled ? '（已作废）' : ''), y, 15);
    y -= 24;
  };
  title(t.title);
  drawCentred(page, font, '（存　根）', y, 11);
  y -= 18;
  right(t.number);
  for (const p of t.stub) para(p);
  right(t.sealDate);
  para(t.validity, 10, false);
  cut('骑缝线');
  title(t.title);
  right(t.number);
  para(t.letter.salutation, 11, false);
  for (const p of t.letter.body) para(p);
  para(t.validity, 10, false);
  right('（盖章）');
  right(t.sealDate);
  for (const c of t.letter.contact) para(c, 9, false);
  cut('沿此线剪下');
  title(t.receipt.title);
  right(t.number);
  para(t.receipt.salutation, 11, false);
  para(t.receipt.body);
  right('（盖章）');
  right('　　年　　月　　日');
}

/** One PDF of the letters given (already in number order), one page each. */
export async function lettersPdf(letters: { texts: LetterTexts; cancelled: boolean }[], title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreator('党建工作管理系统');
  const all = letters.flatMap(({ texts: t }) => [t.title, t.number, ...t.stub, t.sealDate, t.validity, t.letter.salutation, ...t.letter.body, ...t.letter.contact, t.receipt.title, t.receipt.salutation, t.receipt.body]);
  const font = await cjkFont(doc, [...all, '（存　根）（盖章）年月日已作废骑缝线沿此线剪下- ']);
  for (const l of letters) drawLetter(doc.addPage([595, 842]), font, l.texts, l.cancelled);
  return doc.save();
}

export { letterTexts };
