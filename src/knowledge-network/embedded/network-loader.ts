import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ParsedSchema, Origin, ParsedNetwork } from './bkn/bkn-definitions';
import { BknFormatError } from './bkn/bkn-format.error';
import { BknParser } from './bkn/bkn-parser';
import { GlossaryEntries, parseGlossary } from './glossary';
import { DataFile, InstanceRowsReader } from './instance-rows.reader';
import { LoadedNetwork, NetworkSource } from './loaded-network';
import { NetworkProblems } from './network-problems';
import { DiskKeySet, MemoryKeySet, PrimaryKeySet } from './primary-key-set';
import { SchemaValidator } from './schema-validator';

/**
 * What checking one network folder found: its definitions when it has no error, how many instance rows
 * it has, and every problem. The rows are read and checked as an index build reads them (streamed, keys
 * checked on disk), not kept: a folder of any size is checked in bounded memory.
 */
export interface NetworkCheck {
  schema?: ParsedSchema;
  instances: number;
  errors: readonly BknFormatError[];
  warnings: readonly string[];
  /** Data files lacking declared columns: warnings at start-up, errors under KN_STRICT and `kn check`. */
  missingColumns: readonly string[];
}

/** A network whose rows are read while an index takes them (see `NetworkLoader.stream`). */
export interface StreamedNetwork {
  network: NetworkSource;
  /** After the index has taken every row: throws every problem the rows had, as `load` would. */
  finish(): void;
}

/** How a read hands out rows: collected into arrays, or as the lazy iterables themselves. */
interface Reading<T, V> {
  keySet: () => PrimaryKeySet;
  rows(rows: Iterable<Record<string, unknown>>): T;
  views(rows: Iterable<Record<string, string>>): V;
}

const IN_MEMORY: Reading<Record<string, unknown>[], Record<string, string>[]> = {
  keySet: () => new MemoryKeySet(),
  rows: (rows) => [...rows],
  views: (rows) => [...rows],
};

const STREAMED: Reading<Iterable<Record<string, unknown>>, Iterable<Record<string, string>>> = {
  keySet: () => new DiskKeySet(),
  rows: (rows) => rows,
  views: (rows) => rows,
};

/**
 * Reads one network folder (BKN files + data/*.csv). `check` collects every problem with its file and
 * line; `load` is what start-up runs: the same check, throwing all the problems when there is one;
 * `stream` is the same for a build into an index file, which never holds a whole table in memory.
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
    const network = this.read(folder, problems, IN_MEMORY);
    problems.throwIfAny();
    return network!;
  }

  check(folder: string): NetworkCheck {
    const problems = new NetworkProblems();
    const network = this.read(folder, problems, STREAMED);
    const instances = readEveryRow(network);
    return {
      schema: network && problems.errors.length === 0 ? network.schema : undefined,
      instances,
      errors: problems.errors,
      warnings: problems.warnings,
      missingColumns: network?.missingColumns ?? [],
    };
  }

  /**
   * The folder's definitions checked now (throwing every problem, rows included, when they fail), its
   * rows and view rows read from disk as the index iterates them, in the order `load` reads them.
   */
  stream(folder: string): StreamedNetwork {
    const problems = new NetworkProblems();
    const network = this.read(folder, problems, STREAMED);
    if (!network || problems.errors.length > 0) {
      readEveryRow(network);
      problems.throwIfAny();
    }
    return { network: network!, finish: () => problems.throwIfAny() };
  }

  relative(file: string): string {
    return path.relative(this.base, file) || file;
  }

  /**
   * The folder with its rows read as `reading` wants them: all at once into arrays (`load`), or lazily
   * as they are iterated (`stream`, `check`), duplicate keys then checked on disk, not in the heap.
   */
  private read<T extends Iterable<Record<string, unknown>>, V extends Iterable<Record<string, string>>>(
    folder: string,
    problems: NetworkProblems,
    reading: Reading<T, V>,
  ): (NetworkSource & { instances: Map<string, { file?: string; rows: T }>; views: Map<string, V> }) | undefined {
    const schema = this.schema(folder, problems);
    if (!schema) return undefined;
    this.validator.check(schema, problems);
    const missingColumns: string[] = [];
    const reader = new InstanceRowsReader(schema.network.id, problems, reading.keySet, missingColumns);
    const instances = new Map<string, { file?: string; rows: T }>();
    for (const objectType of schema.objectTypes) {
      const type = objectType.type;
      const data = this.dataFile(folder, [type.id, type.data_source?.id, type.data_source?.name]);
      instances.set(type.id, { file: data?.file, rows: reading.rows(reader.objectRows(objectType, data)) });
    }
    const views = new Map<string, V>();
    for (const relation of schema.relationTypes) {
      if (relation.mapping.kind !== 'data_view') continue;
      const { viewId, line } = relation.mapping;
      const data = this.dataFile(folder, [viewId]);
      views.set(relation.type.id, reading.views(reader.viewRows(data, viewId, relation.origin, line)));
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

  private dataFile(folder: string, names: (string | undefined)[]): DataFile | undefined {
    for (const name of names) {
      if (!name || name.includes('/') || name.includes('\\') || name.startsWith('.')) continue;
      const source = path.join(folder, 'data', `${name}.csv`);
      if (existsSync(source)) return { file: this.relative(source), source };
    }
    return undefined;
  }
}

/**
 * Reads a streamed network's data files to the end, so every problem in them is reported; returns how
 * many instance rows were handed out.
 */
function readEveryRow(network: NetworkSource | undefined): number {
  let instances = 0;
  for (const entry of network?.instances.values() ?? []) instances += drain(entry.rows);
  for (const rows of network?.views.values() ?? []) drain(rows);
  return instances;
}

function drain(rows: Iterable<unknown>): number {
  let count = 0;
  for (const row of rows) {
    void row;
    count += 1;
  }
  return count;
}
