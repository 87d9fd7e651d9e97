import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'csv-parse/sync';
import { CsvRow, openCsvTable } from './csv-table.reader';

/** Every record of a file read in reads of `chunkBytes`, or the error message it stops with. */
function readAll(source: string, chunkBytes: number): { header: string[]; rows: CsvRow[] } | string {
  try {
    const table = openCsvTable('data/x.csv', source, chunkBytes);
    return { header: table.header, rows: [...table.rows] };
  } catch (error) {
    return (error as Error).message;
  }
}

describe('openCsvTable', () => {
  let dir: string;
  const write = (content: string | Buffer): string => {
    const file = path.join(dir, 'x.csv');
    writeFileSync(file, content);
    return file;
  };

  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'csv-reader-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * The records and lines a whole-file parse gives (what the loader did before it read in chunks), and
   * the same at every read size: each byte of the file is a chunk boundary once.
   */
  const expectSameAtEveryBoundary = (source: string, expected: { header: string[]; rows: CsvRow[] }): void => {
    const whole = parse(readFileSync(source), {
      bom: true,
      info: true,
      skip_empty_lines: true,
      trim: false,
    }) as unknown as {
      record: string[];
      info: { lines: number };
    }[];
    expect(whole.slice(1).map((entry) => ({ line: entry.info.lines, cells: entry.record }))).toEqual(expected.rows);
    for (let chunkBytes = 1; chunkBytes <= statSync(source).size + 1; chunkBytes += 1) {
      expect([chunkBytes, readAll(source, chunkBytes)]).toEqual([chunkBytes, expected]);
    }
  };

  it('reads a quoted field holding a newline split across two reads, with the line the record ends on', () => {
    const source = write('id,note\nA1,"first line\nsecond line"\nA2,plain\n');
    expectSameAtEveryBoundary(source, {
      header: ['id', 'note'],
      rows: [
        { line: 3, cells: ['A1', 'first line\nsecond line'] },
        { line: 4, cells: ['A2', 'plain'] },
      ],
    });
  });

  it('reads multi-byte UTF-8 characters split across two reads (BOM skipped)', () => {
    const source = write(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('编号,名称\nP1,糖尿病😀\nP2,高血压\n')]),
    );
    expectSameAtEveryBoundary(source, {
      header: ['编号', '名称'],
      rows: [
        { line: 2, cells: ['P1', '糖尿病😀'] },
        { line: 3, cells: ['P2', '高血压'] },
      ],
    });
  });

  it('reads CRLF line ends split between the CR and the LF, skipping empty lines', () => {
    const source = write('id,name\r\nA1,x\r\n\r\nA2,"y\r\nz"\r\n');
    expectSameAtEveryBoundary(source, {
      header: ['id', 'name'],
      rows: [
        { line: 2, cells: ['A1', 'x'] },
        // csv-parse counts a quoted CR and LF as a line each: kept, as messages have always named it.
        { line: 6, cells: ['A2', 'y\r\nz'] },
      ],
    });
  });

  it('hands out the records before a malformed one, then its message and line, at every read size', () => {
    const readUntilError = (source: string, chunkBytes: number): unknown[] => {
      const seen: unknown[] = [];
      try {
        for (const row of openCsvTable('data/x.csv', source, chunkBytes).rows) seen.push(row.line);
      } catch (error) {
        seen.push((error as Error).message);
      }
      return seen;
    };
    const extraField = write('id,name\nA1,x\nA2,x,extra\nA3,y\n');
    for (let chunkBytes = 1; chunkBytes <= 40; chunkBytes += 1) {
      expect(readUntilError(extraField, chunkBytes)).toEqual([
        2,
        'data/x.csv:3: invalid CSV: Invalid Record Length: expect 2, got 3 on line 3',
      ]);
    }
    const unclosed = write('id,name\nA1,"open\nA2,y\n');
    const message = readUntilError(unclosed, 1 << 20);
    expect(message).toEqual([expect.stringMatching(/^data\/x\.csv:\d+: invalid CSV: Quote Not Closed/)]);
    for (let chunkBytes = 1; chunkBytes <= 30; chunkBytes += 1)
      expect(readUntilError(unclosed, chunkBytes)).toEqual(message);
  });

  it('names a file without a header row at line 1', () => {
    expect(readAll(write(''), 4)).toBe('data/x.csv:1: CSV file has no header row');
    expect(readAll(write('\n\n'), 1)).toBe('data/x.csv:1: CSV file has no header row');
  });
});
