import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ParsedObjectType, ParsedSchema, Origin } from './bkn/bkn-definitions';
import { BknFormatError } from './bkn/bkn-format.error';
import { BknParser } from './bkn/bkn-parser';
import { readCsvTable } from './csv-table.reader';
import { GlossaryEntries, parseGlossary } from './glossary';
import { InstanceRows, LoadedNetwork } from './loaded-network';
import { parseTypedValue } from './property-types';
import { SchemaValidator } from './schema-validator';

/** Reads one network folder (BKN files + data/*.csv); throws BknFormatError at the first problem. */
export class NetworkLoader {
  private readonly parser = new BknParser();
  private readonly validator = new SchemaValidator();

  constructor(private readonly root: string) {}

  /** Network folders under the root: every directory holding a network.bkn (or meant to). */
  folders(): string[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root)
      .filter((name) => !name.startsWith('.') && statSync(path.join(this.root, name)).isDirectory())
      .sort()
      .map((name) => path.join(this.root, name));
  }

  load(folder: string): LoadedNetwork {
    const rootFile = path.join(folder, 'network.bkn');
    if (!existsSync(rootFile)) throw new BknFormatError(this.relative(rootFile), 1, 'root file does not exist');
    const schema: ParsedSchema = {
      network: this.parser.network(this.relative(rootFile), readFileSync(rootFile, 'utf8')),
      objectTypes: this.parseAll(folder, 'object_types', (file, text) => this.parser.objectType(file, text)),
      relationTypes: this.parseAll(folder, 'relation_types', (file, text) => this.parser.relationType(file, text)),
      actionTypes: this.parseAll(folder, 'action_types', (file, text) => this.parser.actionType(file, text)),
      conceptGroups: this.parseAll(folder, 'concept_groups', (file, text) => this.parser.conceptGroup(file, text)),
      metricTypes: this.parseAll(folder, 'metrics', (file, text) => this.parser.metricType(file, text)),
    };
    this.validator.validate(schema);
    const warnings: string[] = [];
    const missingColumns: string[] = [];
    const instances = new Map<string, InstanceRows>();
    for (const objectType of schema.objectTypes) {
      const rows = this.instances(folder, objectType, warnings);
      const gap = rows.file ? this.missingColumns(schema, objectType, rows.file, rows.header ?? []) : undefined;
      if (gap) missingColumns.push(gap);
      instances.set(objectType.type.id, { file: rows.file, rows: rows.rows });
    }
    const views = new Map<string, Record<string, string>[]>();
    for (const relation of schema.relationTypes) {
      if (relation.mapping.kind !== 'data_view') continue;
      views.set(relation.type.id, this.view(folder, relation.mapping.viewId, relation.origin, relation.mapping.line));
    }
    return { folder, schema, instances, views, warnings, missingColumns, glossary: this.glossary(folder) };
  }

  /** The folder's glossary.yaml (see Glossary), or none. */
  private glossary(folder: string): GlossaryEntries {
    const file = path.join(folder, 'glossary.yaml');
    return existsSync(file) ? parseGlossary(this.relative(file), readFileSync(file, 'utf8')) : {};
  }

  relative(file: string): string {
    return path.relative(path.dirname(this.root), file) || file;
  }

  private parseAll<T extends { origin: Origin }>(
    folder: string,
    sub: string,
    parse: (file: string, text: string) => T,
  ): T[] {
    const dir = path.join(folder, sub);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => name.endsWith('.bkn'))
      .sort()
      .map((name) => parse(this.relative(path.join(dir, name)), readFileSync(path.join(dir, name), 'utf8')));
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
    warnings: string[],
  ): InstanceRows & { header?: string[] } {
    const type = parsed.type;
    const file = this.dataFile(folder, [type.id, type.data_source?.id, type.data_source?.name]);
    if (!file) {
      warnings.push(`${parsed.origin.file}: no instance data (data/${type.id}.csv); the type has no instances`);
      return { rows: [] };
    }
    const table = readCsvTable(this.relative(file), readFileSync(file, 'utf8'));
    const byName = new Map(type.data_properties.map((property) => [property.name, property]));
    const columns = table.header.map((name) => byName.get(name));
    table.header.forEach((name, index) => {
      if (!columns[index])
        warnings.push(`${table.file}:1: column "${name}" is not a data property of ${type.id}; ignored`);
    });
    const missingKey = type.primary_keys.find((key) => !table.header.includes(key));
    if (missingKey) throw new BknFormatError(table.file, 1, `primary key column "${missingKey}" is missing`);
    const seen = new Set<string>();
    const rows = table.rows.map(({ line, cells }) => {
      const row: Record<string, unknown> = {};
      columns.forEach((property, index) => {
        if (!property) return;
        try {
          row[property.name] = parseTypedValue(cells[index] ?? '', property.type);
        } catch (error) {
          throw new BknFormatError(table.file, line, `column "${property.name}": ${(error as Error).message}`);
        }
      });
      const key = JSON.stringify(type.primary_keys.map((name) => row[name]));
      if (type.primary_keys.some((name) => row[name] === null || row[name] === undefined)) {
        throw new BknFormatError(table.file, line, `primary key ${type.primary_keys.join(', ')} is empty`);
      }
      if (seen.has(key)) throw new BknFormatError(table.file, line, `duplicate primary key ${key}`);
      seen.add(key);
      return row;
    });
    return { file: table.file, rows, header: table.header };
  }

  private view(folder: string, viewId: string, origin: Origin, line: number): Record<string, string>[] {
    const file = this.dataFile(folder, [viewId]);
    if (!file)
      throw new BknFormatError(origin.file, line, `mapping view "${viewId}" has no data file data/${viewId}.csv`);
    const table = readCsvTable(this.relative(file), readFileSync(file, 'utf8'));
    return table.rows.map(({ cells }) =>
      Object.fromEntries(table.header.map((name, index) => [name, cells[index] ?? ''])),
    );
  }
}
