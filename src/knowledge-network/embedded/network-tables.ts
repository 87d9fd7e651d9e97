import Database from 'better-sqlite3';
import { FTS5_TOKENIZER } from '../../common/bm25/fts5-tokens';
import { hasTable } from '../../common/sqlite/has-table';
import { ParsedRelationType } from './bkn/bkn-definitions';
import { ObjectTable } from './object-table';
import { sqliteAffinity, toSqlValue } from './property-types';
import { segmentForIndex } from '../../common/search/text-segmenter';

/**
 * Table setup of a network's SQLite database: the DDL and the inserts that fill it while a network
 * loads. Only NetworkIndex calls these, with its own connection; queries live in NetworkIndex.
 */

export type VectorTable = 'concept_vec' | 'instance_vec';

export interface VectorRow {
  rowid: number;
  ot: number;
  vector: Float32Array;
}

export interface ConceptTextRow {
  rowid: number;
  name: string;
  comment: string;
  body: string;
}

export const vectorBlob = (vector: Float32Array): Buffer =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

/** `ot_<n>` with a typed, indexed column per data property, and `fts_<n>` over the text properties. */
export function createObjectTable(db: Database.Database, table: ObjectTable): void {
  const columns = table.type.data_properties.map(
    (property) => `${table.column(property.name)} ${sqliteAffinity(property.type)}`,
  );
  db.exec(`CREATE TABLE ${table.table} (_rowid INTEGER PRIMARY KEY${columns.map((c) => `, ${c}`).join('')})`);
  const ftsColumns = table.textProperties.map((property) => table.column(property.name)!);
  if (ftsColumns.length === 0) ftsColumns.push('empty');
  db.exec(
    `CREATE VIRTUAL TABLE ${table.fts} USING fts5(${ftsColumns.join(', ')}, content='', tokenize='${FTS5_TOKENIZER}')`,
  );
}

/** An index per data property column: made once the table is full, a sort instead of an insert per row. */
export function createColumnIndexes(db: Database.Database, table: ObjectTable): void {
  for (const property of table.type.data_properties) {
    const column = table.column(property.name)!;
    db.exec(`CREATE INDEX ${table.table}_${column} ON ${table.table}(${column})`);
  }
}

/** Inserts rows with consecutive rowids from `firstRowid` (unique across the network); returns the next one. */
export function insertObjectRows(
  db: Database.Database,
  table: ObjectTable,
  rows: Iterable<Record<string, unknown>>,
  firstRowid: number,
): number {
  const properties = table.type.data_properties;
  const columns = properties.map((property) => table.column(property.name)!);
  const insert = db.prepare(
    `INSERT INTO ${table.table} (_rowid${columns.map((c) => `, ${c}`).join('')}) VALUES (?${', ?'.repeat(columns.length)})`,
  );
  const textColumns = table.textProperties.map((property) => table.column(property.name)!);
  const insertText =
    textColumns.length > 0
      ? db.prepare(
          `INSERT INTO ${table.fts} (rowid, ${textColumns.join(', ')}) VALUES (?${', ?'.repeat(textColumns.length)})`,
        )
      : undefined;
  let rowid = firstRowid;
  for (const row of rows) {
    insert.run(rowid, ...properties.map((property) => toSqlValue(row[property.name], property.type)));
    insertText?.run(
      rowid,
      ...table.textProperties.map((property) => segmentForIndex(String(row[property.name] ?? ''))),
    );
    rowid += 1;
  }
  return rowid;
}

/** Terms in more than half of the table's `rowCount` rows, read once from an fts5vocab view of the index. */
export function readCommonTerms(db: Database.Database, table: ObjectTable, rowCount: number): Set<string> {
  if (rowCount < 20 || table.textProperties.length === 0) return new Set();
  const vocab = `${table.fts}_vocab`;
  db.exec(`CREATE VIRTUAL TABLE temp.${vocab} USING fts5vocab(main, ${table.fts}, 'row')`);
  const common = db.prepare(`SELECT term FROM temp.${vocab} WHERE doc > ?`).all(rowCount / 2) as {
    term: string;
  }[];
  db.exec(`DROP TABLE temp.${vocab}`);
  return new Set(common.map((entry) => entry.term));
}

/** `edges(rt, src, dst)`: relation instances, indexed both ways for hops in either direction. */
export function createEdgeTable(db: Database.Database): void {
  db.exec(
    'CREATE TABLE edges (rt INTEGER NOT NULL, src INTEGER NOT NULL, dst INTEGER NOT NULL, PRIMARY KEY (rt, src, dst)) WITHOUT ROWID',
  );
  db.exec('CREATE INDEX edges_reverse ON edges(rt, dst, src)');
}

/** A `direct` relation: an edge wherever the mapped properties of source and target are equal. */
export function insertDirectEdges(
  db: Database.Database,
  relation: ParsedRelationType,
  rt: number,
  source: ObjectTable,
  target: ObjectTable,
): void {
  if (relation.mapping.kind !== 'direct') return;
  const on = relation.mapping.pairs
    .map((pair) => `s.${source.column(pair.source)} = t.${target.column(pair.target)}`)
    .join(' AND ');
  db.prepare(
    `INSERT OR IGNORE INTO edges SELECT ?, s._rowid, t._rowid FROM ${source.table} s JOIN ${target.table} t ON ${on}`,
  ).run(rt);
}

/** A `data_view` relation: the view's rows in a temporary table, joined to both ends. */
export function insertViewEdges(
  db: Database.Database,
  relation: ParsedRelationType,
  rt: number,
  ends: { source: ObjectTable; target: ObjectTable },
  rows: Iterable<Record<string, string>>,
): void {
  if (relation.mapping.kind !== 'data_view') return;
  const { source, target } = ends;
  const mapping = relation.mapping;
  const viewProps = [...new Set([...mapping.source, ...mapping.target].map((entry) => entry.viewProperty))];
  const viewTable = `view_${rt}`;
  const viewColumn = (name: string): string => `v${viewProps.indexOf(name)}`;
  db.exec(`CREATE TEMP TABLE ${viewTable} (${viewProps.map((_, i) => `v${i} TEXT`).join(', ')})`);
  const insert = db.prepare(`INSERT INTO ${viewTable} VALUES (${viewProps.map(() => '?').join(', ')})`);
  for (const row of rows)
    insert.run(...viewProps.map((name) => (row[name] === undefined || row[name] === '' ? null : row[name])));
  const sourceOn = mapping.source.map(
    (entry) => `s.${source.column(entry.objectProperty)} = v.${viewColumn(entry.viewProperty)}`,
  );
  const targetOn = mapping.target.map(
    (entry) => `t.${target.column(entry.objectProperty)} = v.${viewColumn(entry.viewProperty)}`,
  );
  db.prepare(
    `INSERT OR IGNORE INTO edges SELECT ?, s._rowid, t._rowid FROM ${viewTable} v ` +
      `JOIN ${source.table} s ON ${sourceOn.join(' AND ')} JOIN ${target.table} t ON ${targetOn.join(' AND ')}`,
  ).run(rt);
  db.exec(`DROP TABLE ${viewTable}`);
}

/** `concept_fts(name, comment, body)`, filled with the already segmented texts of every concept. */
export function createConceptTable(db: Database.Database, rows: ConceptTextRow[]): void {
  db.exec(
    "CREATE VIRTUAL TABLE concept_fts USING fts5(name, comment, body, content='', tokenize='unicode61 remove_diacritics 2')",
  );
  const insert = db.prepare('INSERT INTO concept_fts (rowid, name, comment, body) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const row of rows) insert.run(row.rowid, row.name, row.comment, row.body);
  })();
}

/** Both sqlite-vec tables (cosine distance, the object type number as metadata), once the dimension is known. */
export function createVectorTables(db: Database.Database, dimension: number): void {
  for (const table of ['concept_vec', 'instance_vec']) {
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(embedding float[${dimension}] distance_metric=cosine, ot integer)`,
    );
  }
}

export function insertVectorRows(db: Database.Database, table: VectorTable, rows: VectorRow[]): void {
  const insert = db.prepare(`INSERT INTO ${table}(rowid, embedding, ot) VALUES (?, ?, ?)`);
  db.transaction(() => {
    for (const row of rows) insert.run(BigInt(row.rowid), vectorBlob(row.vector), BigInt(row.ot));
  })();
}

/** `index_meta(name, value)`: what the query side reads at open instead of parsing the network again. */
export function createMetaTable(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS index_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)');
}

export function insertMeta(db: Database.Database, meta: Record<string, string>): void {
  const insert = db.prepare('INSERT OR REPLACE INTO index_meta (name, value) VALUES (?, ?)');
  db.transaction(() => {
    for (const [name, value] of Object.entries(meta)) insert.run(name, value);
  })();
}

export function readMeta(db: Database.Database): Record<string, string> {
  if (!hasTable(db, 'index_meta')) return {};
  const rows = db.prepare('SELECT name, value FROM index_meta').all() as { name: string; value: string }[];
  return Object.fromEntries(rows.map((row) => [row.name, row.value]));
}
