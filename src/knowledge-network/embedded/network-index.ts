import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { ObjectInstance, ObjectType } from '../knowledge-network.types';
import { LoadedNetwork } from './loaded-network';
import { ObjectTable } from './object-table';
import { fromSqlValue, sqliteAffinity, toSqlValue } from './property-types';
import { segmentForIndex } from './text-segmenter';

/** bm25 weight of the display-name column relative to other text columns. */
const DISPLAY_WEIGHT = 5;

type Row = Record<string, unknown>;

/**
 * One network's SQLite database (in memory): a typed table and an FTS5 table per object type, and the
 * statement cache every query goes through. Edges and concepts are added by their own builders.
 */
export class NetworkIndex {
  readonly db: Database.Database;
  readonly tables = new Map<string, ObjectTable>();
  private nextRowid = 1;
  private readonly statements = new LRUCache<string, Database.Statement>({ max: 500 });

  constructor() {
    this.db = new Database(':memory:');
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
  }

  /** A cached prepared statement: the SQL text only ever varies with the condition's shape. */
  prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  addObjectTypes(network: LoadedNetwork): void {
    network.schema.objectTypes.forEach((parsed, position) => {
      const table = new ObjectTable(position, parsed.type);
      this.tables.set(parsed.type.id, table);
      this.createTables(table);
      this.db.transaction(() =>
        this.insertRows(table, network.instances.get(parsed.type.id)?.rows ?? []),
      )();
      table.commonTerms = this.commonTerms(table);
    });
  }

  table(otId: string): ObjectTable | undefined {
    return this.tables.get(otId);
  }

  instanceCount(): number {
    let count = 0;
    for (const table of this.tables.values()) {
      count += (this.prepare(`SELECT count(*) AS n FROM ${table.table}`).get() as { n: number }).n;
    }
    return count;
  }

  /** A stored row as an instance: properties (or the requested ones), identity and display. */
  toInstance(table: ObjectTable, row: Row, properties?: string[]): ObjectInstance {
    const type = table.type;
    const values = this.values(table, row);
    const wanted =
      properties && properties.length > 0
        ? properties.filter((name) => table.property(name))
        : undefined;
    const picked = wanted ? Object.fromEntries(wanted.map((name) => [name, values[name]])) : values;
    const instance: ObjectInstance = { ...picked, _instance_identity: this.identity(type, values) };
    instance._display = this.display(type, values);
    if (typeof row._score === 'number') instance._score = row._score;
    return instance;
  }

  values(table: ObjectTable, row: Row): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const property of table.type.data_properties) {
      values[property.name] = fromSqlValue(row[table.column(property.name)!], property.type);
    }
    return values;
  }

  identity(type: ObjectType, values: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(type.primary_keys.map((key) => [key, values[key]]));
  }

  display(type: ObjectType, values: Record<string, unknown>): string {
    const value = values[type.display_key ?? type.primary_keys[0]];
    return value === null || value === undefined ? '' : String(value);
  }

  /** Terms in more than half of the rows, read once from an fts5vocab view of the index. */
  private commonTerms(table: ObjectTable): Set<string> {
    const rows = (this.prepare(`SELECT count(*) AS n FROM ${table.table}`).get() as { n: number })
      .n;
    if (rows < 20 || table.textProperties.length === 0) return new Set();
    const vocab = `${table.fts}_vocab`;
    this.db.exec(`CREATE VIRTUAL TABLE temp.${vocab} USING fts5vocab(main, ${table.fts}, 'row')`);
    const common = this.db
      .prepare(`SELECT term FROM temp.${vocab} WHERE doc > ?`)
      .all(rows / 2) as { term: string }[];
    this.db.exec(`DROP TABLE temp.${vocab}`);
    return new Set(common.map((entry) => entry.term));
  }

  close(): void {
    this.statements.clear();
    if (this.db.open) this.db.close();
  }

  private createTables(table: ObjectTable): void {
    const columns = table.type.data_properties.map(
      (property) => `${table.column(property.name)} ${sqliteAffinity(property.type)}`,
    );
    this.db.exec(
      `CREATE TABLE ${table.table} (_rowid INTEGER PRIMARY KEY${columns.map((c) => `, ${c}`).join('')})`,
    );
    for (const property of table.type.data_properties) {
      const column = table.column(property.name)!;
      this.db.exec(`CREATE INDEX ${table.table}_${column} ON ${table.table}(${column})`);
    }
    const ftsColumns = table.textProperties.map((property) => table.column(property.name)!);
    if (ftsColumns.length === 0) ftsColumns.push('empty');
    this.db.exec(
      `CREATE VIRTUAL TABLE ${table.fts} USING fts5(${ftsColumns.join(', ')}, content='', tokenize='unicode61 remove_diacritics 2')`,
    );
    // A hit in the instance's display name (e.g. 2型糖尿病) outranks one buried in a long description.
    const displayKey = table.type.display_key ?? table.type.primary_keys[0];
    const weights = table.textProperties.map((property) =>
      property.name === displayKey ? DISPLAY_WEIGHT : 1,
    );
    if (weights.length > 0) {
      this.db
        .prepare(`INSERT INTO ${table.fts} (${table.fts}, rank) VALUES ('rank', ?)`)
        .run(`bm25(${weights.join(', ')})`);
    }
  }

  private insertRows(table: ObjectTable, rows: Record<string, unknown>[]): void {
    const properties = table.type.data_properties;
    const columns = properties.map((property) => table.column(property.name)!);
    const insert = this.db.prepare(
      `INSERT INTO ${table.table} (_rowid${columns.map((c) => `, ${c}`).join('')}) VALUES (?${', ?'.repeat(columns.length)})`,
    );
    const textColumns = table.textProperties.map((property) => table.column(property.name)!);
    const insertText =
      textColumns.length > 0
        ? this.db.prepare(
            `INSERT INTO ${table.fts} (rowid, ${textColumns.join(', ')}) VALUES (?${', ?'.repeat(textColumns.length)})`,
          )
        : undefined;
    for (const row of rows) {
      const rowid = this.nextRowid++;
      insert.run(
        rowid,
        ...properties.map((property) => toSqlValue(row[property.name], property.type)),
      );
      insertText?.run(
        rowid,
        ...table.textProperties.map((property) =>
          segmentForIndex(String(row[property.name] ?? '')),
        ),
      );
    }
  }
}
