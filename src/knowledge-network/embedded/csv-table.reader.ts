import { parse } from 'csv-parse/sync';
import { BknFormatError } from './bkn/bkn-format.error';

export interface CsvTable {
  file: string;
  header: string[];
  rows: { line: number; cells: string[] }[];
}

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/** Parses a UTF-8 CSV (BOM allowed) keeping each record's line for error messages. */
export function readCsvTable(file: string, text: string): CsvTable {
  let records: CsvRecord[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      trim: false,
    }) as unknown as CsvRecord[];
  } catch (error) {
    const failure = error as { lines?: number; message?: string };
    throw new BknFormatError(file, failure.lines ?? 1, `invalid CSV: ${failure.message ?? String(error)}`);
  }
  const [head, ...body] = records;
  if (!head) throw new BknFormatError(file, 1, 'CSV file has no header row');
  return {
    file,
    header: head.record.map((name) => name.trim()),
    rows: body.map((entry) => ({ line: entry.info.lines, cells: entry.record })),
  };
}
