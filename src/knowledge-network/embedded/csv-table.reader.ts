import { closeSync, openSync, readSync } from 'node:fs';
import { BknFormatError } from './bkn/bkn-format.error';
import { CsvChunkParser } from './csv-parse-chunks';

export interface CsvRow {
  /** The line the record ends on (a quoted field may span lines), as messages name it. */
  line: number;
  cells: string[];
}

/** A CSV file's header, and its records read as they are consumed (see `openCsvTable`). */
export interface CsvTableStream {
  file: string;
  header: string[];
  rows: Iterable<CsvRow>;
  /** Closes the file when its rows are not read to the end. */
  close(): void;
}

/** Bytes per read: the parser holds one read and the record it ends in, whatever the file's size. */
export const CSV_CHUNK_BYTES = 1 << 20;

/**
 * Opens a UTF-8 CSV (BOM allowed) named `file` in messages and read from `source`, reading its header
 * now and its rows in fixed-size reads as they are iterated, each with its line. A malformed record
 * throws a BknFormatError at its line when the iteration reaches it (after every record before it,
 * whatever the read size).
 */
export function openCsvTable(file: string, source: string, chunkBytes = CSV_CHUNK_BYTES): CsvTableStream {
  const records = csvRecords(file, source, chunkBytes);
  const head = records.next();
  if (head.done) throw new BknFormatError(file, 1, 'CSV file has no header row');
  const header = head.value.cells.map((name) => name.trim());
  return { file, header, rows: { [Symbol.iterator]: () => records }, close: () => void records.return() };
}

function* csvRecords(file: string, source: string, chunkBytes: number): Generator<CsvRow, void, undefined> {
  const parser = new CsvChunkParser({ bom: true, skip_empty_lines: true, trim: false });
  const buffer = Buffer.allocUnsafe(chunkBytes);
  const fd = openSync(source, 'r');
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, chunkBytes, null);
      // The parser may keep a reference to the unparsed tail of a chunk: each read gets its own copy.
      const { records, error } = read > 0 ? parser.write(Buffer.from(buffer.subarray(0, read))) : parser.end();
      for (const entry of records) yield { line: entry.info.lines, cells: entry.record };
      if (error) throw csvError(file, error);
      if (read === 0) return;
    }
  } finally {
    closeSync(fd);
  }
}

function csvError(file: string, error: Error): BknFormatError {
  const lines = (error as { lines?: number }).lines;
  return new BknFormatError(file, lines ?? 1, `invalid CSV: ${error.message}`);
}
