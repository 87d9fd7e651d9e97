import { Info, Options, Parser } from 'csv-parse';

/** One CSV record with the parser's counters when it ended (`info.lines`: the line it ends on). */
export interface CsvChunkRecord {
  record: string[];
  info: Info;
}

export interface CsvChunkResult {
  records: CsvChunkRecord[];
  /** csv-parse's CsvError (with `lines`) for a malformed record. */
  error?: Error;
}

/**
 * The incremental state machine inside csv-parse's `Parser` stream, driven synchronously one buffer at a
 * time. csv-parse exposes it only as `parser.api` (its own stream and `sync` entry points feed it the
 * same way), so a field, a quoted newline or a UTF-8 character split across two reads parses, errs and
 * counts lines exactly as one whole-file `parse` would. csv-parse-chunks.spec.ts fails if an upgrade
 * changes that contract.
 */
interface CsvParseApi {
  parse(chunk: Buffer | undefined, end: boolean, push: (record: CsvChunkRecord) => void, close: () => void): unknown;
}

export class CsvChunkParser {
  private readonly api: CsvParseApi;

  constructor(options: Omit<Options, 'info' | 'objname' | 'columns'>) {
    const api = (new Parser({ ...options, info: true }) as unknown as { api?: CsvParseApi }).api;
    if (typeof api?.parse !== 'function') throw new Error('csv-parse no longer exposes its incremental parser');
    this.api = api;
  }

  /**
   * The records `chunk` completes; a record still open at its end waits for the next chunk. A malformed
   * record ends the input: `error` is set, and `records` holds those before it.
   */
  write(chunk: Buffer): CsvChunkResult {
    return this.feed(chunk, false);
  }

  /** The last record, once the input has ended. */
  end(): CsvChunkResult {
    return this.feed(undefined, true);
  }

  private feed(chunk: Buffer | undefined, end: boolean): CsvChunkResult {
    const records: CsvChunkRecord[] = [];
    const error = this.api.parse(
      chunk,
      end,
      (record) => records.push(record),
      () => undefined,
    );
    if (error === undefined) return { records };
    return { records, error: error instanceof Error ? error : new Error(String(error)) };
  }
}
