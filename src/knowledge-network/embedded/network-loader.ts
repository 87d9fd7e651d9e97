import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ParsedObjectType, ParsedSchema, Origin, ParsedNetwork } from './bkn/bkn-definitions';
import { BknFormatError } from './bkn/bkn-format.error';
import { BknParser } from './bkn/bkn-parser';
import { CsvTable, readCsvTable } from './csv-table.reader';
import { GlossaryEntries, parseGlossary } from './glossary';
import { InstanceRows, LoadedNetwork } from './loaded-network';
import { NetworkProblems } from './network-problems';
import { parseTypedValue } from './property-types';
import { SchemaValidator } from './schema-validator';

/** What checking one network folder found: the network when it has no error, and every problem. */
export interface NetworkCheck {
  network?: LoadedNetwork;
  errors: readonly BknFormatError[];
  warnings: readonly string[];
  /** Data files lacking declared columns: warnings at start-up, errors under KN_STRICT and `kn check`. */
  missingColumns: readonly string[];
}

/**
 * Reads one network folder (BKN files + data/*.csv). `check` collects every problem with its file and
 * line; `load` is what start-up runs: the same check, throwing all the problems when there is one.
 */
export class NetworkLoader {
  private readonly parser = new BknParser();
  private readonly validator = new SchemaValidator();

  /** `base`: the folder messages name files relative to (default: the root's parent). */
  constructor(
    private readonly root: string,
    private readonly base = path.dirname(root),
  ) {}

  /** Network folders under the root: every directory holding a network.bkn (or meant to). */
  folders(): string[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root)
      .filter((name) => !name.startsWith('.') && statSync(path.join(this.root, name)).isDirectory())
      .sort()
      .map((name) => path.join(this.root, name));
  }

  load(folder: string): LoadedNetwork {
    const problems = new NetworkProblems();
    const network = this.read(folder, problems);
    problems.throwIfAny();
    return network!;
  }

  check(folder: string): NetworkCheck {
    const problems = new NetworkProblems();
    const network = this.read(folder, problems);
    return {
      network: problems.errors.length === 0 ? network : undefined,
      errors: problems.errors,
      warnings: problems.warnings,
      missingColumns: network?.missingColumns ?? [],
    };
  }

  relative(file: string): string {
    return path.relative(this.base, file) || file;
  }

  private read(folder: string, problems: NetworkProblems): LoadedNetwork | undefined {
    const schema = this.schema(folder, problems);
    if (!schema) return undefined;
    this.validator.check(schema, problems);
    const missingColumns: string[] = [];
    const instances = new Map<string, InstanceRows>();
    for (const objectType of schema.objectTypes) {
      const rows = this.instances(folder, objectType, problems);
      const gap = rows.file ? this.missingColumns(schema, objectType, rows.file, rows.header ?? []) : undefined;
      if (gap) missingColumns.push(gap);
      instances.set(objectType.type.id, { file: rows.file, rows: rows.rows });
    }
    const views = new Map<string, Record<string, string>[]>();
    for (const relation of schema.relationTypes) {
      if (relation.mapping.kind !== 'data_view') continue;
      const { viewId, line } = relation.mapping;
      views.set(relation.type.id, this.view(folder, viewId, relation.origin, line, problems));
    }
    const glossary = problems.collect(() => this.glossary(folder)) ?? {};
    return { folder, schema, instances, views, warnings: problems.warnings, missingColumns, glossary };
  }

  /** The folder's glossary.yaml (see Glossary), or none. */
  private glossary(folder: string): GlossaryEntries {
    const file = path.join(folder, 'glossary.yaml');
    return existsSync(file) ? parseGlossary(this.relative(file), readFileSync(file, 'utf8')) : {};
  }

  /** Every definition file parsed on its own: one broken file does not hide the problems of the others. */
  private schema(folder: string, problems: NetworkProblems): ParsedSchema | undefined {
    const rootFile = path.join(folder, 'network.bkn');
    if (!existsSync(rootFile)) {
      problems.error(this.relative(rootFile), 1, 'root file does not exist');
      return undefined;
    }
    const network: ParsedNetwork | undefined = problems.collect(() =>
      this.parser.network(this.relative(rootFile), readFileSync(rootFile, 'utf8')),
    );
    const parseAll = <T extends { origin: Origin }>(sub: string, parse: (file: string, text: string) => T): T[] =>
      this.files(folder, sub).flatMap((file) => problems.collect(() => parse(file, this.readText(file))) ?? []);
    const schema = {
      objectTypes: parseAll('object_types', (file, text) => this.parser.objectType(file, text)),
      relationTypes: parseAll('relation_types', (file, text) => this.parser.relationType(file, text)),
      actionTypes: parseAll('action_types', (file, text) => this.parser.actionType(file, text)),
      conceptGroups: parseAll('concept_groups', (file, text) => this.parser.conceptGroup(file, text)),
      metricTypes: parseAll('metrics', (file, text) => this.parser.metricType(file, text)),
    };
    return network ? { network, ...schema } : undefined;
  }

  /** The `.bkn` files of one kind's folder, named as messages name them. */
  private files(folder: string, sub: string): string[] {
    const dir = path.join(folder, sub);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => name.endsWith('.bkn'))
      .sort()
      .map((name) => this.relative(path.join(dir, name)));
  }

  private readText(relativeFile: string): string {
    return readFileSync(path.resolve(this.base, relativeFile), 'utf8');
  }

  private dataFile(folder: string, names: (string | undefined)[]): string | undefined {
    for (const name of names) {
      if (!name || name.includes('/') || name.includes('\\') || name.startsWith('.')) continue;
      const file = path.join(folder, 'data', `${name}.csv`);
      if (existsSync(file)) return file;
    }
    return undefined;
  }

  /**
   * A data file without a column its object type declares: every instance would hold null there, which
   * no query tells apart from a real null. One message per file, naming the network and the columns.
   */
  private missingColumns(
    schema: ParsedSchema,
    parsed: ParsedObjectType,
    file: string,
    header: string[],
  ): string | undefined {
    const present = new Set(header);
    const missing = parsed.type.data_properties.map((property) => property.name).filter((name) => !present.has(name));
    if (missing.length === 0) return undefined;
    const columns = missing.map((name) => `"${name}"`).join(', ');
    const network = `network "${schema.network.id}", object type ${parsed.type.id}`;
    return `${file}:1: declared column${missing.length > 1 ? 's' : ''} ${columns} missing (${network}); loaded as null`;
  }

  private instances(
    folder: string,
    parsed: ParsedObjectType,
    problems: NetworkProblems,
  ): InstanceRows & { header?: string[] } {
    const type = parsed.type;
    const file = this.dataFile(folder, [type.id, type.data_source?.id, type.data_source?.name]);
    if (!file) {
      problems.warn(`${parsed.origin.file}: no instance data (data/${type.id}.csv); the type has no instances`);
      return { rows: [] };
    }
    const table = problems.collect(() => readCsvTable(this.relative(file), readFileSync(file, 'utf8')));
    if (!table) return { rows: [] };
    table.header.forEach((name) => {
      if (!type.data_properties.some((property) => property.name === name))
        problems.warn(`${table.file}:1: column "${name}" is not a data property of ${type.id}; ignored`);
    });
    const missingKey = type.primary_keys.find((key) => !table.header.includes(key));
    if (missingKey) {
      problems.error(table.file, 1, `primary key column "${missingKey}" is missing`);
      return { file: table.file, rows: [], header: table.header };
    }
    return { file: table.file, rows: this.typedRows(parsed, table, problems), header: table.header };
  }

  /** The rows typed by their properties; a row with a bad value or key is reported and left out. */
  private typedRows(parsed: ParsedObjectType, table: CsvTable, problems: NetworkProblems): Record<string, unknown>[] {
    const type = parsed.type;
    const byName = new Map(type.data_properties.map((property) => [property.name, property]));
    const columns = table.header.map((name) => byName.get(name));
    const seen = new Map<string, number>();
    const rows: Record<string, unknown>[] = [];
    for (const { line, cells } of table.rows) {
      const row = problems.collect(() => typedRow(table.file, line, columns, cells));
      if (!row) continue;
      if (type.primary_keys.some((name) => row[name] === null || row[name] === undefined)) {
        problems.error(table.file, line, `primary key ${type.primary_keys.join(', ')} is empty`);
        continue;
      }
      const key = JSON.stringify(type.primary_keys.map((name) => row[name]));
      const first = seen.get(key);
      if (first !== undefined) {
        problems.error(table.file, line, `duplicate primary key ${key} (first on line ${first})`);
        continue;
      }
      seen.set(key, line);
      rows.push(row);
    }
    return rows;
  }

  private view(
    folder: string,
    viewId: string,
    origin: Origin,
    line: number,
    problems: NetworkProblems,
  ): Record<string, string>[] {
    const file = this.dataFile(folder, [viewId]);
    if (!file) {
      problems.error(origin.file, line, `mapping view "${viewId}" has no data file data/${viewId}.csv`);
      return [];
    }
    const table = problems.collect(() => readCsvTable(this.relative(file), readFileSync(file, 'utf8')));
    return (table?.rows ?? []).map(({ cells }) =>
      Object.fromEntries(table!.header.map((name, index) => [name, cells[index] ?? ''])),
    );
  }
}

type Column = ParsedObjectType['type']['data_properties'][number] | undefined;

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
