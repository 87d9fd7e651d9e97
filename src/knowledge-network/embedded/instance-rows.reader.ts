import { ParsedObjectType, Origin } from './bkn/bkn-definitions';
import { BknFormatError } from './bkn/bkn-format.error';
import { CsvRow, CsvTableStream, openCsvTable } from './csv-table.reader';
import { NetworkProblems } from './network-problems';
import { PrimaryKeySet } from './primary-key-set';
import { parseTypedValue } from './property-types';

/** A data file as messages name it (`file`) and where it is read from (`source`). */
export interface DataFile {
  file: string;
  source: string;
}

type Column = ParsedObjectType['type']['data_properties'][number] | undefined;

/**
 * Reads the data files of one network as they are iterated, one record at a time: an object type's
 * typed rows, a mapping view's raw rows. Every problem goes to `problems` in file order, as it is met;
 * once there is an error no more rows are handed out (the network will not be served), but the files
 * are still read to the end so every problem is reported.
 */
export class InstanceRowsReader {
  constructor(
    private readonly networkId: string,
    private readonly problems: NetworkProblems,
    private readonly keySet: () => PrimaryKeySet,
    /** Gets one message per data file lacking declared columns. */
    private readonly missingColumns: string[],
  ) {}

  /** An object type's rows typed by its properties; a row with a bad value or key is reported and left out. */
  *objectRows(parsed: ParsedObjectType, data: DataFile | undefined): Generator<Record<string, unknown>> {
    const type = parsed.type;
    if (!data) {
      this.problems.warn(`${parsed.origin.file}: no instance data (data/${type.id}.csv); the type has no instances`);
      return;
    }
    const table = this.problems.collect(() => openCsvTable(data.file, data.source));
    if (!table) return;
    this.checkHeader(parsed, table);
    const missingKey = type.primary_keys.find((key) => !table.header.includes(key));
    if (missingKey) {
      table.close();
      this.problems.error(table.file, 1, `primary key column "${missingKey}" is missing`);
      return;
    }
    const byName = new Map(type.data_properties.map((property) => [property.name, property]));
    const columns = table.header.map((name) => byName.get(name));
    const keys = this.keySet();
    try {
      for (const { line, cells } of this.records(table)) {
        const row = this.problems.collect(() => typedRow(table.file, line, columns, cells));
        if (row && this.isNewKey(parsed, table.file, line, row, keys) && this.problems.errors.length === 0) yield row;
      }
    } finally {
      keys.close();
    }
  }

  /** A mapping view's rows as strings by column name. */
  *viewRows(
    data: DataFile | undefined,
    viewId: string,
    origin: Origin,
    line: number,
  ): Generator<Record<string, string>> {
    if (!data) {
      this.problems.error(origin.file, line, `mapping view "${viewId}" has no data file data/${viewId}.csv`);
      return;
    }
    const table = this.problems.collect(() => openCsvTable(data.file, data.source));
    if (!table) return;
    for (const { cells } of this.records(table)) {
      if (this.problems.errors.length > 0) continue;
      yield Object.fromEntries(table.header.map((name, index) => [name, cells[index] ?? '']));
    }
  }

  /** The table's records up to the first malformed one, which is reported. */
  private *records(table: CsvTableStream): Generator<CsvRow> {
    try {
      yield* table.rows;
    } catch (error) {
      if (!(error instanceof BknFormatError)) throw error;
      this.problems.errors.push(error);
    } finally {
      table.close();
    }
  }

  private isNewKey(
    parsed: ParsedObjectType,
    file: string,
    line: number,
    row: Record<string, unknown>,
    keys: PrimaryKeySet,
  ): boolean {
    const primaryKeys = parsed.type.primary_keys;
    if (primaryKeys.some((name) => row[name] === null || row[name] === undefined)) {
      this.problems.error(file, line, `primary key ${primaryKeys.join(', ')} is empty`);
      return false;
    }
    const key = JSON.stringify(primaryKeys.map((name) => row[name]));
    const first = keys.firstLine(key, line);
    if (first === undefined) return true;
    this.problems.error(file, line, `duplicate primary key ${key} (first on line ${first})`);
    return false;
  }

  /**
   * Columns that are not properties (ignored, a warning), and declared columns the file lacks: every
   * instance would hold null there, which no query tells apart from a real null.
   */
  private checkHeader(parsed: ParsedObjectType, table: CsvTableStream): void {
    const type = parsed.type;
    table.header.forEach((name) => {
      if (!type.data_properties.some((property) => property.name === name))
        this.problems.warn(`${table.file}:1: column "${name}" is not a data property of ${type.id}; ignored`);
    });
    const present = new Set(table.header);
    const missing = type.data_properties.map((property) => property.name).filter((name) => !present.has(name));
    if (missing.length === 0) return;
    const columns = missing.map((name) => `"${name}"`).join(', ');
    const where = `network "${this.networkId}", object type ${type.id}`;
    this.missingColumns.push(
      `${table.file}:1: declared column${missing.length > 1 ? 's' : ''} ${columns} missing (${where}); loaded as null`,
    );
  }
}

function typedRow(file: string, line: number, columns: Column[], cells: string[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  columns.forEach((property, index) => {
    if (!property) return;
    try {
      row[property.name] = parseTypedValue(cells[index] ?? '', property.type);
    } catch (error) {
      throw new BknFormatError(file, line, `column "${property.name}": ${(error as Error).message}`);
    }
  });
  return row;
}
