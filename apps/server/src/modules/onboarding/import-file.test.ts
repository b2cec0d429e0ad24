import { deflateRawSync } from 'node:zlib';

import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';

import { AppError } from '@/platform/errors';

import { cellText, readImportFile, sniffImportFileType } from './import-file';

/** A ZIP whose one central-directory entry claims `uncompressed` bytes (nothing is inflated). */
function zipClaiming(name: string, compressed: number, uncompressed: number): Buffer {
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  const entry = Buffer.alloc(46);
  entry.writeUInt32LE(0x02014b50, 0);
  entry.writeUInt32LE(compressed, 20);
  entry.writeUInt32LE(uncompressed, 24);
  entry.writeUInt16LE(nameBytes.length, 28);
  const directory = Buffer.concat([entry, nameBytes]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(local.length, 16);
  return Buffer.concat([local, directory, end]);
}

/**
 * A ZIP of really deflated entries whose central directory claims each expands to `claimed`
 * bytes (the lie a zip bomb tells to pass a check of the directory).
 */
function zipLying(entries: { name: string; data: Buffer }[], claimed: number): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name);
    const compressed = deflateRawSync(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(claimed, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(compressed.length, 20);
    entry.writeUInt32LE(claimed, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, compressed);
    directory.push(entry, nameBytes);
    offset += local.length + nameBytes.length + compressed.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directoryBytes, end]);
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof AppError ? [error.code, error.message] : error),
  );

describe('sniffImportFileType', () => {
  it('knows a workbook by its ZIP parts and a CSV by valid UTF-8 text', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Drivers').addRow(['Driver Name']);
    expect(sniffImportFileType(Buffer.from(await workbook.xlsx.writeBuffer()))).toBe('xlsx');
    expect(sniffImportFileType(Buffer.from('Driver Name,Surname\nRené,Nkosi\n'))).toBe('csv');
    expect(sniffImportFileType(Buffer.from([0x52, 0x65, 0x6e, 0xe9]))).toBeNull();
    expect(sniffImportFileType(Buffer.from('a\0b'))).toBeNull();
    expect(sniffImportFileType(zipClaiming('word/document.xml', 10, 10))).toBeNull();
  });

  it('refuses a ZIP that claims to expand to far more than a sheet of drivers', () => {
    expect(() => sniffImportFileType(zipClaiming('xl/workbook.xml', 1_000, 900_000_000))).toThrow(
      'This workbook expands to too much data.',
    );
  });
});

describe('readImportFile', () => {
  it('refuses a workbook whose parts really inflate past the cap, whatever the ZIP claims', async () => {
    const bomb = zipLying(
      [
        { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
        { name: 'xl/workbook.xml', data: Buffer.alloc(80 * 1024 * 1024, 0x20) },
      ],
      1_000,
    );
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(sniffImportFileType(bomb)).toBe('xlsx'); // the directory alone looks harmless
    expect(await rejection(readImportFile('bomb.xlsx', bomb))).toEqual([
      'PAYLOAD_TOO_LARGE',
      'This workbook expands to too much data.',
    ]);
    // The same lie about a small part is only an unreadable workbook.
    const small = zipLying(
      [
        { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
        { name: 'xl/workbook.xml', data: Buffer.alloc(4096, 0x20) },
      ],
      1_000,
    );
    expect(await rejection(readImportFile('small.xlsx', small))).toEqual([
      'UNSUPPORTED_MEDIA_TYPE',
      'This file is not a valid XLSX workbook.',
    ]);
  });

  it('maps headers by letters and digits, keeps spreadsheet row numbers and skips blank lines', async () => {
    const csv =
      'DRIVER_NAME,surname*,Id Number,Notes\r\nSipho,Nkosi,8001015009087,x\r\n,,,\r\n\r\nThandi,,1,\r\n';
    const file = await readImportFile('fleet.CSV', Buffer.from(`\uFEFF${csv}`));
    expect(file).toEqual({
      fileType: 'csv',
      rows: [
        { rowNumber: 2, values: { name: 'Sipho', surname: 'Nkosi', idNumber: '8001015009087' } },
        { rowNumber: 5, values: { name: 'Thandi', idNumber: '1' } },
      ],
    });
  });

  it('takes 5,000 rows however many blank lines lie between them, and refuses one more', async () => {
    const header = 'Driver Name,Surname,ID Number';
    const rows = Array.from({ length: 5000 }, (_, index) => `A${index},B,C`);
    const spaced = await readImportFile('f.csv', Buffer.from([header, ...rows].join('\n\n,,\n')));
    expect(spaced.rows).toHaveLength(5000);
    expect(spaced.rows.at(-1)).toEqual({
      rowNumber: 1 + 5000 * 3,
      values: { name: 'A4999', surname: 'B', idNumber: 'C' },
    });
    const tooMany = [header, ...rows, 'X,Y,Z'].join('\n');
    expect(await rejection(readImportFile('f.csv', Buffer.from(tooMany)))).toEqual([
      'INVALID',
      expect.stringMatching(/^The file has more than 5[\s,]000 rows/),
    ]);
  });

  it('reads semicolon-separated CSV (Excel with a decimal comma)', async () => {
    const file = await readImportFile(
      'f.csv',
      Buffer.from('Driver Name;Surname;ID Number\nA;B;C\n'),
    );
    expect(file.rows[0]?.values).toEqual({ name: 'A', surname: 'B', idNumber: 'C' });
  });

  it('says which required columns are missing, and refuses a column given twice', async () => {
    expect(await rejection(readImportFile('f.csv', Buffer.from('Driver,Phone\nA,1\n')))).toEqual([
      'INVALID',
      'The file is missing the column(s) Driver Name, Surname, ID Number. Download the template to see the columns.',
    ]);
    expect(
      await rejection(
        readImportFile('f.csv', Buffer.from('Driver Name,Surname,ID Number,Surname\nA,B,C,D\n')),
      ),
    ).toEqual(['INVALID', 'The column "Surname" appears twice.']);
  });

  it('refuses an empty file, a header alone and a broken quote', async () => {
    expect(await rejection(readImportFile('f.csv', Buffer.alloc(0)))).toEqual([
      'INVALID',
      'The file is empty.',
    ]);
    expect(
      await rejection(readImportFile('f.csv', Buffer.from('Driver Name,Surname,ID Number\n'))),
    ).toEqual(['INVALID', 'The file has no driver rows under its header.']);
    const broken = await rejection(
      readImportFile('f.csv', Buffer.from('Driver Name,Surname,ID Number\n"A,B,C\n')),
    );
    expect(broken).toEqual(['INVALID', expect.stringMatching(/^The CSV could not be read: /)]);
  });
});

describe('cellText', () => {
  it('shows what the spreadsheet shows, never running a formula', () => {
    expect(cellText(8001015009087)).toBe('8001015009087');
    expect(cellText(new Date(Date.UTC(2030, 5, 30)))).toBe('2030-06-30');
    expect(cellText({ richText: [{ text: 'Sip' }, { text: 'ho' }] })).toBe('Sipho');
    expect(cellText({ formula: 'A1&B1', result: 'Nkosi' })).toBe('Nkosi');
    expect(cellText({ formula: '1/0', result: { error: '#DIV/0!' } })).toBe('');
    expect(cellText({ text: 'site', hyperlink: 'http://x' })).toBe('site');
    expect(cellText(null)).toBe('');
  });
});
