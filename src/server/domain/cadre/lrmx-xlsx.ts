/**
 * The 干部任免审批表 as an .xlsx in the national layout (two pages on one A4 sheet each): page one the
 * basic fields beside the photo, education, current / proposed / removed posts and the résumé; page two
 * rewards, yearly assessments, the reason, family members and the approval boxes.
 */
import ExcelJS from 'exceljs';
import type { LrmxForm } from '../../../shared/cadre-lrmx.js';

const THIN: Partial<ExcelJS.Borders> = { top: { style: 'thin' }, left: { style: 'thin' }, bottom: { style: 'thin' }, right: { style: 'thin' } };
const FONT: Partial<ExcelJS.Font> = { name: '宋体', size: 11 };

export function lrmxWorkbook(form: LrmxForm, photo?: { buffer: Buffer; extension: 'jpeg' | 'png' }): ExcelJS.Workbook {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('任免审批表', { pageSetup: { paperSize: 9, orientation: 'portrait', fitToPage: true, fitToWidth: 1, fitToHeight: 0 } });
  sheet.columns = [10, 13, 9, 13, 12, 13, 9, 12].map((width) => ({ width }));
  /** Writes a value into a (merged) range, bordered and wrapped; labels centred. */
  const put = (range: string, value: string, opts: { label?: boolean; left?: boolean; top?: boolean; font?: Partial<ExcelJS.Font> } = {}) => {
    if (range.includes(':')) sheet.mergeCells(range);
    const cell = sheet.getCell(range.split(':')[0]);
    cell.value = value;
    cell.font = { ...FONT, ...opts.font };
    cell.alignment = { wrapText: true, vertical: opts.top ? 'top' : 'middle', horizontal: opts.left ? 'left' : 'center' };
    const [from, to = from] = range.split(':');
    const cols = [from, to].map((a) => a.replace(/\d+/, '').charCodeAt(0) - 64);
    const rows = [from, to].map((a) => Number(a.replace(/[A-Z]+/, '')));
    for (let r = rows[0]; r <= rows[1]; r++) for (let c = cols[0]; c <= cols[1]; c++) sheet.getCell(r, c).border = THIN;
  };
  const height = (row: number, h: number) => (sheet.getRow(row).height = h);

  put('A1:H1', '干部任免审批表', { font: { size: 20, bold: true } });
  sheet.getCell('A1').border = {};
  height(1, 40);
  put('A2', '姓  名', { label: true });
  put('B2', form.name);
  put('C2', '性  别', { label: true });
  put('D2', form.gender);
  put('E2', '出生年月\n（  岁）', { label: true });
  put('F2', form.birth);
  put('G2:H5', photo ? '' : '（照片）');
  put('A3', '民  族', { label: true });
  put('B3', form.ethnicity);
  put('C3', '籍  贯', { label: true });
  put('D3', form.nativePlace);
  put('E3', '出 生 地', { label: true });
  put('F3', form.birthPlace);
  put('A4', '入  党\n时  间', { label: true });
  put('B4', form.joinParty);
  put('C4', '参加工\n作时间', { label: true });
  put('D4', form.workStart);
  put('E4', '健康状况', { label: true });
  put('F4', form.health);
  put('A5', '专业技\n术职务', { label: true });
  put('B5:C5', form.title);
  put('D5', '熟悉专业\n有何专长', { label: true });
  put('E5:F5', form.speciality);
  for (let r = 2; r <= 5; r++) height(r, 36);
  put('A6:A7', '学  历\n学  位', { label: true });
  put('B6', '全日制\n教  育', { label: true });
  put('C6:D6', [form.fullTimeEducation, form.fullTimeDegree].filter(Boolean).join('\n'));
  put('E6', '毕业院校\n系及专业', { label: true });
  put('F6:H6', form.fullTimeSchool, { left: true });
  put('B7', '在  职\n教  育', { label: true });
  put('C7:D7', [form.partTimeEducation, form.partTimeDegree].filter(Boolean).join('\n'));
  put('E7', '毕业院校\n系及专业', { label: true });
  put('F7:H7', form.partTimeSchool, { left: true });
  height(6, 36);
  height(7, 36);
  put('A8:B8', '现 任 职 务', { label: true });
  put('C8:H8', form.currentPost, { left: true });
  put('A9:B9', '拟 任 职 务', { label: true });
  put('C9:H9', form.proposedPost, { left: true });
  put('A10:B10', '拟 免 职 务', { label: true });
  put('C10:H10', form.proposedRemoval, { left: true });
  for (let r = 8; r <= 10; r++) height(r, 28);
  put('A11', '简\n\n\n\n历', { label: true });
  put('B11:H11', form.resume.join('\n'), { left: true, top: true });
  height(11, Math.max(360, form.resume.length * 18 + 20));
  sheet.getRow(11).addPageBreak();

  put('A12', '奖\n惩\n情\n况', { label: true });
  put('B12:H12', form.rewards, { left: true, top: true });
  height(12, 80);
  put('A13', '年度考\n核结果', { label: true });
  put('B13:H13', form.assessments, { left: true });
  height(13, 48);
  put('A14', '任免\n理由', { label: true });
  put('B14:H14', form.reason, { left: true, top: true });
  height(14, 60);
  const familyRows = Math.max(form.family.length, 6);
  put(`A15:A${15 + familyRows}`, '家庭主要成员及重要社会关系', { label: true });
  put('B15', '称  谓', { label: true });
  put('C15', '姓  名', { label: true });
  put('D15', '年  龄', { label: true });
  put('E15', '政治面貌', { label: true });
  put('F15:H15', '工 作 单 位 及 职 务', { label: true });
  for (let i = 0; i < familyRows; i++) {
    const r = 16 + i;
    const m = form.family[i];
    put(`B${r}`, m?.relation ?? '');
    put(`C${r}`, m?.name ?? '');
    put(`D${r}`, m?.age === null || m?.age === undefined ? '' : String(m.age));
    put(`E${r}`, m?.political ?? '');
    put(`F${r}:H${r}`, m?.workplace ?? '', { left: true });
    height(r, 26);
  }
  let r = 16 + familyRows;
  for (const title of ['呈报单位', '审批机关意见', '行政机关任免意见']) {
    put(`A${r}:B${r}`, title, { label: true });
    put(`C${r}:H${r}`, title === '呈报单位' ? '' : '\n\n（盖章）\n年  月  日', { left: title === '呈报单位' });
    height(r, title === '呈报单位' ? 40 : 72);
    r++;
  }
  put(`A${r}:H${r}`, `填表人：            填表时间：${form.filledAt}`, { left: true });
  sheet.getCell(`A${r}`).border = {};
  if (photo) {
    const image = book.addImage({ buffer: photo.buffer as unknown as ExcelJS.Buffer, extension: photo.extension });
    sheet.addImage(image, 'G2:H5');
  }
  return book;
}
