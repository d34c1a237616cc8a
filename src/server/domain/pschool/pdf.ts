/**
 * PDFs with Chinese text (certificates, the demo course documents) made with pdf-lib; the font embedding and
 * line wrapping are core/pdf-cjk.ts's.
 */
import { PDFDocument, rgb } from 'pdf-lib';
import QRCode from 'qrcode';
import { cjkFont as fontFor, drawCentred as centred, wrapText as wrap } from '../../core/pdf-cjk.js';

export interface CertificateContent {
  no: string;
  holderName: string;
  className: string;
  batchName: string;
  stage: string;
  hours: number;
  issuedAt: Date;
  issuer: string;
  verifyUrl: string;
}

const RED = rgb(0.72, 0.05, 0.05);

export async function certificatePdf(c: CertificateContent): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`结业证书 ${c.no}`);
  doc.setCreator('党建工作管理系统');
  const date = `${c.issuedAt.getFullYear()}年${c.issuedAt.getMonth() + 1}月${c.issuedAt.getDate()}日`;
  const body = `${c.holderName}同志参加${c.batchName ? `“${c.batchName}”` : ''}${c.className}${c.stage ? `（${c.stage}培训）` : ''}学习，完成规定学时${c.hours}学时，经考核合格，准予结业。`;
  const texts = ['结业证书', '特发此证', '证书编号：', '扫码或访问以下地址验证：', body, c.no, c.issuer, date, c.verifyUrl];
  const font = await fontFor(doc, texts);
  const page = doc.addPage([842, 595]); // A4 landscape
  page.drawRectangle({ x: 24, y: 24, width: 794, height: 547, borderColor: RED, borderWidth: 3 });
  page.drawRectangle({ x: 34, y: 34, width: 774, height: 527, borderColor: RED, borderWidth: 1 });
  centred(page, font, '结业证书', 470, 40, RED);
  let y = 390;
  for (const line of wrap(font, body, 20, 620)) {
    page.drawText(line, { x: 111, y, size: 20, font });
    y -= 34;
  }
  centred(page, font, '特发此证', y - 16, 20);
  page.drawText(c.issuer, { x: 520, y: 150, size: 18, font });
  page.drawText(date, { x: 540, y: 120, size: 16, font });
  page.drawText(`证书编号：${c.no}`, { x: 70, y: 150, size: 13, font });
  page.drawText('扫码或访问以下地址验证：', { x: 70, y: 130, size: 11, font, color: rgb(0.35, 0.35, 0.35) });
  page.drawText(c.verifyUrl, { x: 70, y: 114, size: 8, font, color: rgb(0.35, 0.35, 0.35) });
  const qr = await doc.embedPng(await QRCode.toBuffer(c.verifyUrl, { margin: 1, width: 180 }));
  page.drawImage(qr, { x: 380, y: 60, width: 90, height: 90 });
  return doc.save();
}

/** A study document for the demo courses: a title and paragraphs, A4 portrait, wrapped. */
export async function documentPdf(title: string, paragraphs: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const font = await fontFor(doc, [title, ...paragraphs]);
  let page = doc.addPage([595, 842]);
  centred(page, font, title, 770, 22, RED);
  let y = 720;
  for (const p of paragraphs) {
    for (const line of wrap(font, `　　${p}`, 13, 495)) {
      if (y < 60) {
        page = doc.addPage([595, 842]);
        y = 780;
      }
      page.drawText(line, { x: 50, y, size: 13, font });
      y -= 22;
    }
    y -= 8;
  }
  return doc.save();
}
