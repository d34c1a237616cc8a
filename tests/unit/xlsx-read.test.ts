import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/server/errors.js';
import { neutraliseFormula, restoreNeutralised, sendXlsx } from '../../src/server/core/xlsx.js';
import { RowScanner, XLSX_LIMITS, XlsxFile, XlsxUnreadable, type StreamedTable, type TableRow } from '../../src/server/core/xlsx-read.js';
import { bookBytes, deflatedPart, inlineRow, partsOf, sheetBomb, SHEET_HEAD, SHEET_TAIL, streamedWorkbook, zipOf } from '../support/xlsx-files.js';

const MB = 1024 * 1024;
const TITLES = new Map([
  ['姓名', 'name'],
  ['出生日期', 'birth'],
  ['备注', 'note'],
]);

async function all<K>(table: StreamedTable<K> | undefined, size = 1000): Promise<TableRow[]> {
  const rows: TableRow[] = [];
  for await (const batch of table!.batches(size)) rows.push(...batch);
  return rows;
}

/** The error a promise rejects with. */
async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
}

const rowsBook = (data: unknown[][], note = false) =>
  bookBytes((book) => {
    const sheet = book.addWorksheet('人员');
    if (note) sheet.addRow(['说明：带 * 的列必填']);
    sheet.addRow(['姓名*', '出生日期', '备注']);
    for (const r of data) sheet.addRow(r);
  });

describe('the streaming workbook reader (core/xlsx-read)', () => {
  it('reads the first visible sheet as a table: the title row under a note, typed cells, empty rows left out', async () => {
    const bytes = await bookBytes((book) => {
      book.addWorksheet('lists', { state: 'hidden' }).addRow(['姓名', '出生日期']);
      const sheet = book.addWorksheet('人员');
      sheet.addRow(['说明：带 * 的列必填']);
      sheet.addRow(['姓名*', '出生日期', ' 备 注 ', '不认识的列']);
      sheet.addRow([' 张三 ', new Date(Date.UTC(1990, 0, 31)), { richText: [{ text: '富' }, { text: '文本' }] }]);
      sheet.addRow([]);
      sheet.addRow(['   ', null, null]);
      sheet.addRow(['李四', null, "'=1+1", 'x']);
      sheet.getColumn(2).numFmt = 'yyyy-mm-dd';
    });
    const file = await XlsxFile.open(bytes);
    expect(file.sheets.map((s) => [s.name, s.hidden, s.valueRows])).toEqual([
      ['lists', true, 1],
      // The whitespace-only row holds a value in the XML (the count is an upper bound); the reader drops it.
      ['人员', false, 5],
    ]);
    const sheet = file.firstVisibleSheet()!;
    expect(sheet.name).toBe('人员');
    const table = await file.openTable(sheet, TITLES, 100);
    expect(table!.headers).toEqual(['姓名*', '出生日期', '备 注', '不认识的列']);
    expect([...table!.columns]).toEqual([
      [1, 'name'],
      [2, 'birth'],
      [3, 'note'],
    ]);
    const rows = await all(table);
    expect(rows).toEqual([
      { row: 3, cells: ['张三', new Date(Date.UTC(1990, 0, 31)), '富文本', null] },
      // An exported text neutralised against formulas comes back as it was.
      { row: 6, cells: ['李四', null, '=1+1', 'x'] },
    ]);
    // A sheet without any known title: no table.
    expect(await file.openTable(file.sheets[1], new Map([['别的', 1]]), 100)).toBeUndefined();
  });

  it('reads sheets stored before their shared strings (as Excel writes them) and sheets of inline strings (the streaming writer)', async () => {
    const base = partsOf(await rowsBook([['王五', null, '备注一'], ['赵六', null, '备注二']]));
    expect([...base.keys()]).toContain('xl/sharedStrings.xml');
    const order = [...base.keys()].sort((a, b) => Number(b.includes('worksheets')) - Number(a.includes('worksheets')));
    expect(order[0]).toMatch(/worksheets/);
    const excelOrder = zipOf(order.map((name) => deflatedPart(name, base.get(name)!)));
    const file = await XlsxFile.open(excelOrder);
    expect((await all(await file.openTable(file.firstVisibleSheet()!, TITLES, 100))).map((r) => r.cells[0])).toEqual(['王五', '赵六']);

    const inline = zipOf(
      [...base]
        .filter(([name]) => name !== 'xl/sharedStrings.xml')
        .map(([name, content]) => deflatedPart(name, name === 'xl/worksheets/sheet1.xml' ? SHEET_HEAD + inlineRow(['姓名', '备注'], 1) + inlineRow(['孙七', '内联'], 2) + SHEET_TAIL : content)),
    );
    const inlineFile = await XlsxFile.open(inline);
    expect(await all(await inlineFile.openTable(inlineFile.firstVisibleSheet()!, TITLES, 100))).toEqual([{ row: 2, cells: ['孙七', '内联'] }]);
  });

  it('batches rows and yields to the event loop between batches', async () => {
    const file = await XlsxFile.open(await rowsBook(Array.from({ length: 25 }, (_x, i) => [`人${i}`])));
    const table = await file.openTable(file.firstVisibleSheet()!, TITLES, 100);
    // Another task, running whenever the event loop gets a turn.
    let turns = 0;
    let reading = true;
    const other = () => {
      turns++;
      if (reading) setImmediate(other);
    };
    setImmediate(other);
    const sizes: number[] = [];
    const turnsAt: number[] = [];
    for await (const batch of table!.batches(10)) {
      sizes.push(batch.length);
      turnsAt.push(turns);
    }
    reading = false;
    expect(sizes).toEqual([10, 10, 5]);
    expect(turnsAt[1]).toBeGreaterThan(turnsAt[0]);
    expect(turnsAt[2]).toBeGreaterThan(turnsAt[1]);
  });

  it('reads to the end when the rows are taken slowly (an import writes each batch before reading on)', async () => {
    // The streaming unzipper used to fail with FILE_ENDED when the input had ended before it finished the last part.
    const file = await XlsxFile.open(await streamedWorkbook(51, ['姓名', '备注'], ['张三', '慢']));
    const table = await file.openTable(file.firstVisibleSheet()!, TITLES, 100);
    let rows = 0;
    for await (const batch of table!.batches(10)) {
      rows += batch.length;
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(rows).toBe(51);
  });

  describe('the row limit', () => {
    it('refuses at once a file whose rows, counted from its XML, are over the limit by more than the title rows', async () => {
      const bytes = await rowsBook(Array.from({ length: 30 }, (_x, i) => [`人${i}`]));
      const error = await failure(XlsxFile.open(bytes, 10));
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ statusCode: 400, message: '文件行数超过上限（最多10行），请拆分后分批导入' });
      // Opened without a limit, its table still refuses.
      const file = await XlsxFile.open(bytes);
      await expect(file.openTable(file.firstVisibleSheet()!, TITLES, 10)).rejects.toMatchObject({ statusCode: 400 });
    });

    it('counts exactly near the limit: the data rows under the title decide, not the note and title rows', async () => {
      const exactly = await XlsxFile.open(await rowsBook(Array.from({ length: 10 }, (_x, i) => [`人${i}`]), true), 10);
      await exactly.assertRowLimit(exactly.firstVisibleSheet()!, TITLES, 10);
      expect(await all(await exactly.openTable(exactly.firstVisibleSheet()!, TITLES, 10))).toHaveLength(10);

      const over = await XlsxFile.open(await rowsBook(Array.from({ length: 12 }, (_x, i) => [`人${i}`])), 10);
      await expect(over.assertRowLimit(over.firstVisibleSheet()!, TITLES, 10)).rejects.toMatchObject({ statusCode: 400, message: '文件行数超过上限（最多10行），请拆分后分批导入' });
      const table = await over.openTable(over.firstVisibleSheet()!, TITLES, 10);
      const seen: number[] = [];
      const reading = (async () => {
        for await (const batch of table!.batches(4)) seen.push(...batch.map((r) => r.row));
      })();
      await expect(reading).rejects.toMatchObject({ statusCode: 400 });
      // The ten rows allowed were read, then it stopped at the first row over the limit.
      expect(seen).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      // An importer may word it its own way.
      await expect(over.assertRowLimit(over.firstVisibleSheet()!, TITLES, 10, (n) => new HttpError(400, `最多${n}个`))).rejects.toMatchObject({ message: '最多10个' });
    });
  });

  describe('zip bombs and broken files', () => {
    it('refuses a sheet declaring more than the bound before inflating anything', async () => {
      const bomb = await sheetBomb(XLSX_LIMITS.total + MB);
      expect(bomb.length).toBeLessThan(2 * MB);
      const t0 = performance.now();
      await expect(XlsxFile.open(bomb)).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/^文件解压后的内容过大（超过256MB）/) });
      expect(performance.now() - t0).toBeLessThan(500);
    });

    it('refuses a part that inflates to more than it declares, having inflated no more than that', async () => {
      const liar = await sheetBomb(64 * MB, { declare: 100_000 });
      await expect(XlsxFile.open(liar)).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/^文件内容异常/) });
    });

    it('refuses an absurd compression ratio and oversized shared strings', async () => {
      // Under the size bounds, but 64 MB from a few hundred KB.
      const dense = await sheetBomb(64 * MB);
      expect(dense.length * XLSX_LIMITS.ratio).toBeLessThan(64 * MB);
      await expect(XlsxFile.open(dense)).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/^文件内容异常/) });
      const strings = await sheetBomb(XLSX_LIMITS.sharedStrings + MB, { part: 'xl/sharedStrings.xml' });
      await expect(XlsxFile.open(strings)).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/^文件解压后的内容过大/) });
    });

    it('refuses a row longer than any real one', async () => {
      const base = partsOf(await rowsBook([['甲']]));
      // Random text: it compresses like real text, so only the row's length is wrong.
      const text = randomBytes(XLSX_LIMITS.row).toString('base64');
      const long = deflatedPart('xl/worksheets/sheet1.xml', `${SHEET_HEAD}<row r="1"><c t="inlineStr"><is><t>${text}</t></is></c></row>${SHEET_TAIL}`);
      const parts = [...base].map(([name, content]) => (name === long.name ? long : deflatedPart(name, content)));
      await expect(XlsxFile.open(zipOf(parts))).rejects.toMatchObject({ statusCode: 400, message: '文件中有一行的内容过长，请检查后重新导入' });
    });

    it('tells a file that is no workbook at all', async () => {
      for (const bytes of [Buffer.from('not a zip'), Buffer.alloc(0), zipOf([deflatedPart('readme.txt', 'hello')]), (await rowsBook([['甲']])).subarray(0, 200)]) {
        await expect(XlsxFile.open(bytes)).rejects.toBeInstanceOf(XlsxUnreadable);
      }
    });
  });

  it('counts value rows across chunk boundaries whatever the cut', () => {
    const xml = Buffer.from(
      `${SHEET_HEAD}<row r="1"><c><v>1</v></c></row><row r="2"/><row r="3"><c r="A3" s="1"/></row><row r="4"><c t="inlineStr"><is><t>x</t></is></c></row>` +
        `<row r="5" spans="1:2"><c><v >2</v></c></row><row>\n<c t="s"><v>0</v></c></row>${SHEET_TAIL}<rowBreaks count="1"><brk id="3"/></rowBreaks>`,
    );
    for (let cut = 1; cut < xml.length; cut++) {
      const scanner = new RowScanner(1000);
      scanner.push(xml.subarray(0, cut));
      scanner.push(xml.subarray(cut));
      expect(scanner.valueRows, `cut at ${cut}`).toBe(4);
    }
    const bytewise = new RowScanner(1000);
    for (let i = 0; i < xml.length; i++) bytewise.push(xml.subarray(i, i + 1));
    expect(bytewise.valueRows).toBe(4);
  });

  it('neutralises text that a spreadsheet could take for a formula, and restores it on import', () => {
    for (const text of ['=1+1', '+86 138', '-2', '@SUM(A1)', '\tx', '\rx']) {
      expect(neutraliseFormula(text)).toBe(`'${text}`);
      expect(restoreNeutralised(`'${text}`)).toBe(text);
    }
    for (const value of ['张三', 'a=b', "'quoted", -2, null, new Date(0)]) expect(neutraliseFormula(value)).toBe(value);
    expect(restoreNeutralised("'")).toBe("'");
  });

  it('every download built in memory (sendXlsx) goes out neutralised; formula cells stay formulas', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('名单');
    sheet.addRow(['=1+1', '@cmd', '张三', 5, { formula: 'SUM(D1:D1)', result: 5 }]);
    let sent: Buffer | undefined;
    const reply = { header: () => reply, send: (b: Buffer) => ((sent = b), reply) };
    await sendXlsx(reply as never, book, '名单.xlsx');
    const back = new ExcelJS.Workbook();
    await back.xlsx.load(sent! as never);
    expect(back.worksheets[0].getRow(1).values).toEqual([undefined, "'=1+1", "'@cmd", '张三', 5, { formula: 'SUM(D1:D1)', result: 5 }]);
  });

  it('finds a title row in the first row', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('A').addRow(['姓名']);
    book.getWorksheet('A')!.addRow(['一']);
    const file = await XlsxFile.open(Buffer.from(await book.xlsx.writeBuffer()));
    expect(await all(await file.openTable(file.firstVisibleSheet()!, TITLES, 5))).toEqual([{ row: 2, cells: ['一'] }]);
  });
});
