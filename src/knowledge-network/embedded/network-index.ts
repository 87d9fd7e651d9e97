import type Database from 'better-sqlite3';
import { openDatabase, openDatabaseFile } from '../../common/sqlite/open-database';
import { hasTable } from '../../common/sqlite/has-table';
import { LRUCache } from 'lru-cache';
import { buildImpactPostings } from '../../common/bm25/impact-postings';
import { ImpactTopK } from '../../common/bm25/impact-top-k';
import { fts5PhraseSum } from '../../common/bm25/phrase-sum';
import * as sqliteVec from 'sqlite-vec';
import { ObjectType } from '../knowledge-network.types';
import { NetworkSource } from './loaded-network';
import { ObjectTable } from './object-table';
import { buildNameSignatures, NameSignatures } from './name-signatures';
import {
  ConceptTextRow,
  createConceptTable,
  createEdgeTable,
  createMetaTable,
  createColumnIndexes,
  createObjectTable,
  createVectorTables,
  insertDirectEdges,
  insertMeta,
  insertObjectRows,
  insertVectorRows,
  insertViewEdges,
  readCommonTerms,
  readMeta,
  vectorBlob,
  VectorRow,
  VectorTable,
} from './network-tables';
import { Row } from './row-mapping';
import { LIMIT_PARAMETER } from '../../common/sqlite/limit-parameter';

export interface ScoredRowid {
  rowid: number;
  score: number;
}

/** An aggregate over the instances one instance reaches through a relation type. */
export interface RelatedAggregate {
  /** SQL aggregate: COUNT, SUM, AVG, MIN or MAX. */
  fn: string;
  rt: number;
  rowid: number;
  /** The instance is the relation's source (so the others are its targets). */
  fromSource: boolean;
  other: ObjectTable;
  /** Column of `other` to aggregate; none counts rows. */
  column?: string;
}

/** An index file: written once by the build that creates it, then only ever opened read-only. */
export interface IndexFileSource {
  file: string;
  readOnly: boolean;
  /** Read-only: memory-map the file (the default) rather than copy each page read into SQLite's cache. */
  mapped?: boolean;
}

/**
 * Bytes of an index file mapped into memory: reads then share the OS page cache across threads and
 * processes. SQLite caps it at its compile-time maximum (2 GB in better-sqlite3's build).
 */
const MMAP_BYTES = 2 ** 40;
/** SQLite page size of a new index (see the constructor); a built index keeps the one it was written with. */
const PAGE_BYTES = 16384;
/** SQLite page cache of a connection that builds, in KiB (outside the JS heap, released when it closes). */
const BUILD_CACHE_KIB = 64 * 1024;
/** How much less than the cap `releaseMappedPages` maps: a different limit is what makes SQLite map anew. */
const REMAP_STEP = 65536;

/**
 * One network's SQLite database (in memory, or a file under INDEX_DIR), the only holder of its
 * connection: the tables are set up through the methods below (DDL in network-tables), and every query
 * goes through the statement cache.
 */
export class NetworkIndex {
  private readonly db: Database.Database;
  private readonly objectTables = new Map<string, ObjectTable>();
  private nextRowid = 1;
  private readonly statements = new LRUCache<string, Database.Statement>({ max: 500 });
  private readonly topKs = new Map<ObjectTable, ImpactTopK | null>();
  private readonly signatures = new Map<ObjectTable, NameSignatures | null>();
  /** The mmap limit SQLite accepted (0: not mapped), and the one in force now. */
  private mapCap = 0;
  private mapLimit = 0;

  /**
   * An empty in-memory database to fill, a copy of a serialized one (see `serialize`) to query, or a
   * file: a new one to fill, or a built one opened read-only (memory-mapped, writes refused by SQLite).
   */
  constructor(source?: Uint8Array | IndexFileSource) {
    if (source instanceof Uint8Array || source === undefined) {
      this.db = openDatabase(source);
    } else {
      this.db = openDatabaseFile(source.file, source.readOnly);
    }
    if (this.db.readonly) {
      const mapped = !(source instanceof Uint8Array) && source?.mapped !== false;
      this.mapCap = Number(this.db.pragma(`mmap_size = ${mapped ? MMAP_BYTES : 0}`, { simple: true }) ?? 0);
      this.mapLimit = this.mapCap;
      this.db.pragma('query_only = ON');
    } else {
      // Before the first table: a page of postings (12 KB) then fits in one database page instead of an
      // overflow chain of four, which a large index (past the 2 GB SQLite maps) reads with one system call.
      this.db.pragma(`page_size = ${PAGE_BYTES}`);
      // A build is written once and checksummed before use: a crash mid-build leaves only a temporary file.
      // (MEMORY, not OFF: SQLite's defensive mode, on in better-sqlite3, refuses OFF for a file.)
      this.db.pragma(`journal_mode = ${source === undefined || source instanceof Uint8Array ? 'OFF' : 'MEMORY'}`);
      this.db.pragma('synchronous = OFF');
      // A build sorts whole tables into column indexes and postings: more than SQLite's 2 MB default cache.
      this.db.pragma(`cache_size = -${BUILD_CACHE_KIB}`);
    }
    fts5PhraseSum(); // probed once per thread, here rather than in the first query
  }

  /**
   * Unmaps the file and maps it again with nothing resident: the pages this connection touched stop
   * counting in the process's RSS (they stay in the OS page cache, so the next reads fault them back in
   * without disk I/O). SQLite remaps when the limit changes, and only while no mapped page is in use.
   */
  releaseMappedPages(): void {
    if (this.mapCap < REMAP_STEP * 2 || !this.db.open) return;
    this.mapLimit = this.mapLimit === this.mapCap ? this.mapCap - REMAP_STEP : this.mapCap;
    this.db.pragma(`mmap_size = ${this.mapLimit}`);
  }

  /** The whole database as bytes, for another thread to open with `new NetworkIndex(bytes)`. */
  serialize(): Buffer {
    return this.db.serialize();
  }

  /** Stores what the query side needs besides the tables (schema, common terms, counts) in the database. */
  writeMeta(meta: Record<string, string>): void {
    createMetaTable(this.db);
    insertMeta(this.db, meta);
  }

  /** What `writeMeta` stored; empty when the database has no meta table (not an index of this service). */
  readMeta(): Record<string, string> {
    return readMeta(this.db);
  }

  /**
   * The object tables of a database opened from bytes: the same layout `addObjectTypes` created
   * (positions follow the schema's order), with the common terms it measured.
   */
  restoreObjectTypes(types: ObjectType[], commonTerms: Record<string, string[]>): void {
    types.forEach((type, position) => {
      this.addTable(position, type).commonTerms = new Set(commonTerms[type.id] ?? []);
    });
  }

  /** An object type's table, named after its position in the schema (`ot_<n>`, `fts_<n>`). */
  private addTable(position: number, type: ObjectType): ObjectTable {
    const table = new ObjectTable(position, type);
    this.objectTables.set(type.id, table);
    return table;
  }

  /**
   * A cached prepared statement that reads: the SQL text only ever varies with a compiled condition's shape.
   * Writes are refused; tables are filled only while the network loads.
   */
  prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (!statement.reader) throw new Error('NetworkIndex.prepare runs queries only');
      this.statements.set(sql, statement);
    }
    return statement;
  }

  get tables(): ReadonlyMap<string, ObjectTable> {
    return this.objectTables;
  }

  table(otId: string): ObjectTable | undefined {
    return this.objectTables.get(otId);
  }

  /**
   * One table per object type, filled from its rows as they are read (one transaction per type), its
   * column indexes made once it is full, then its common terms and impact postings.
   */
  addObjectTypes(network: NetworkSource, progress: (message: string) => void = () => undefined): void {
    network.schema.objectTypes.forEach((parsed, position) => {
      const table = this.addTable(position, parsed.type);
      createObjectTable(this.db, table);
      const rows = network.instances.get(parsed.type.id)?.rows ?? [];
      const first = this.nextRowid;
      const counted = countedRows(rows, (count) =>
        progress(`object type ${parsed.type.id}: ${count} instance(s) read`),
      );
      this.nextRowid = this.db.transaction(() => insertObjectRows(this.db, table, counted, first))();
      progress(`object type ${parsed.type.id}: ${this.nextRowid - first} instance(s)`);
      createColumnIndexes(this.db, table);
      table.commonTerms = readCommonTerms(this.db, table, this.rowCount(table));
      buildImpactPostings(this.db, { fts: table.fts, postings: table.postings, weights: table.ftsWeights });
      buildNameSignatures(this.db, table);
    });
  }

  /** Materialises every relation's instances as edges, numbered in `edges.rt` by the relation's position. */
  addEdges(network: NetworkSource): void {
    createEdgeTable(this.db);
    network.schema.relationTypes.forEach((relation, rt) => {
      const source = this.table(relation.type.source_object_type_id)!;
      const target = this.table(relation.type.target_object_type_id)!;
      const viewRows = network.views.get(relation.type.id) ?? [];
      this.db.transaction(() =>
        relation.mapping.kind === 'direct'
          ? insertDirectEdges(this.db, relation, rt, source, target)
          : insertViewEdges(this.db, relation, rt, { source, target }, viewRows),
      )();
    });
  }

  addConcepts(rows: ConceptTextRow[]): void {
    createConceptTable(this.db, rows);
  }

  /** Concepts matching an FTS5 expression, best first, weighted name 10 : comment 3 : body 1. */
  searchConcepts(expression: string, limit: number): ScoredRowid[] {
    return this.prepare(
      `SELECT rowid, -bm25(concept_fts, 10.0, 3.0, 1.0) AS score FROM concept_fts WHERE concept_fts MATCH ? ORDER BY score DESC ${LIMIT_PARAMETER}`,
    ).all(expression, limit) as ScoredRowid[];
  }

  /** Whether an instance's display name (or first primary key) is exactly `name`; an indexed lookup. */
  hasInstanceNamed(table: ObjectTable, name: string): boolean {
    const column = table.column(table.displayKey ?? '');
    if (!column) return false;
    return this.prepare(`SELECT 1 FROM ${table.table} WHERE ${column} = ? LIMIT 1`).get(name) !== undefined;
  }

  /** Loads sqlite-vec into the connection; vector tables are created with the first vectors' dimension. */
  enableVectors(): void {
    sqliteVec.load(this.db);
  }

  addVectors(table: VectorTable, dimension: number, rows: VectorRow[]): void {
    createVectorTables(this.db, dimension);
    insertVectorRows(this.db, table, rows);
  }

  /** The k nearest vectors by cosine distance (within object type `ot` for instances), as 1 - distance. */
  nearestVectors(table: VectorTable, vector: Float32Array, k: number, ot?: number): ScoredRowid[] {
    const sql = `SELECT rowid, distance FROM ${table} WHERE embedding MATCH ? AND k = ?${ot === undefined ? '' : ' AND ot = ?'}`;
    const params = ot === undefined ? [vectorBlob(vector), k] : [vectorBlob(vector), k, BigInt(ot)];
    const rows = this.prepare(sql).all(...params) as { rowid: number; distance: number }[];
    return rows.map((row) => ({ rowid: Number(row.rowid), score: 1 - row.distance }));
  }

  /**
   * The postings top-k search of a table, or undefined when FTS5 must rank (postings missing from an older
   * database, or a SQLite whose bm25() the postings do not reproduce).
   */
  keywordTopK(table: ObjectTable): ImpactTopK | undefined {
    let search = this.topKs.get(table);
    if (search === undefined) {
      const sum = fts5PhraseSum();
      search = sum && hasTable(this.db, table.postings) ? new ImpactTopK(this.db, table.postings, sum) : null;
      this.topKs.set(table, search);
    }
    return search ?? undefined;
  }

  /** The table's display-name signatures (see NameSignatures), or undefined when the index has none. */
  nameSignatures(table: ObjectTable): NameSignatures | undefined {
    let signatures = this.signatures.get(table);
    if (signatures === undefined) {
      signatures = NameSignatures.open(this.db, table) ?? null;
      this.signatures.set(table, signatures);
    }
    return signatures ?? undefined;
  }

  /** Whether an FTS5 expression matches any instance of the table. */
  hasMatch(table: ObjectTable, expression: string): boolean {
    return this.prepare(`SELECT 1 FROM ${table.fts} WHERE ${table.fts} MATCH ? LIMIT 1`).get(expression) !== undefined;
  }

  hasRow(table: ObjectTable, rowid: number): boolean {
    return this.prepare(`SELECT 1 FROM ${table.table} WHERE _rowid = ?`).get(rowid) !== undefined;
  }

  allRows(table: ObjectTable): Row[] {
    return this.prepare(`SELECT * FROM ${table.table}`).all() as Row[];
  }

  /** `fn` over the related instances, or null when there are none (0 for COUNT). */
  aggregateRelated({ fn, rt, rowid, fromSource, other, column }: RelatedAggregate): unknown {
    const [near, far] = fromSource ? ['src', 'dst'] : ['dst', 'src'];
    const value = column ? `o.${column}` : '1';
    const sql = `SELECT ${fn}(${value}) AS v FROM edges e JOIN ${other.table} o ON o._rowid = e.${far} WHERE e.rt = ? AND e.${near} = ?`;
    return (this.prepare(sql).get(rt, rowid) as { v: unknown }).v ?? (fn === 'COUNT' ? 0 : null);
  }

  instanceCount(): number {
    let count = 0;
    for (const table of this.objectTables.values()) count += this.rowCount(table);
    return count;
  }

  close(): void {
    this.statements.clear();
    this.topKs.clear();
    this.signatures.clear();
    if (this.db.open) this.db.close();
  }

  private rowCount(table: ObjectTable): number {
    return (this.prepare(`SELECT count(*) AS n FROM ${table.table}`).get() as { n: number }).n;
  }
}

/** Rows read in a long build: how many so far, every PROGRESS_ROWS. */
const PROGRESS_ROWS = 1_000_000;

function* countedRows<T>(rows: Iterable<T>, report: (count: number) => void): Generator<T> {
  let count = 0;
  for (const row of rows) {
    yield row;
    count += 1;
    if (count % PROGRESS_ROWS === 0) report(count);
  }
}
