import { ParsedRelationType } from './bkn/bkn-definitions';
import { LoadedNetwork } from './loaded-network';
import { NetworkIndex } from './network-index';

/**
 * Materialises relation instances as rows of `edges(rt, src, dst)`: `direct` relations by property
 * equality between the two object tables, `data_view` relations through the view's rows.
 */
export class EdgeBuilder {
  /** relation type id → its number in `edges.rt` */
  readonly relationIndex = new Map<string, number>();

  constructor(private readonly index: NetworkIndex) {}

  build(network: LoadedNetwork): void {
    const db = this.index.db;
    db.exec(
      'CREATE TABLE edges (rt INTEGER NOT NULL, src INTEGER NOT NULL, dst INTEGER NOT NULL, PRIMARY KEY (rt, src, dst)) WITHOUT ROWID',
    );
    db.exec('CREATE INDEX edges_reverse ON edges(rt, dst, src)');
    network.schema.relationTypes.forEach((relation, position) => {
      this.relationIndex.set(relation.type.id, position);
      db.transaction(() =>
        relation.mapping.kind === 'direct'
          ? this.direct(relation, position)
          : this.view(relation, position, network.views.get(relation.type.id) ?? []),
      )();
    });
  }

  private tables(relation: ParsedRelationType) {
    const source = this.index.table(relation.type.source_object_type_id)!;
    const target = this.index.table(relation.type.target_object_type_id)!;
    return { source, target };
  }

  private direct(relation: ParsedRelationType, rt: number): void {
    if (relation.mapping.kind !== 'direct') return;
    const { source, target } = this.tables(relation);
    const on = relation.mapping.pairs
      .map((pair) => `s.${source.column(pair.source)} = t.${target.column(pair.target)}`)
      .join(' AND ');
    this.index.db
      .prepare(
        `INSERT OR IGNORE INTO edges SELECT ?, s._rowid, t._rowid FROM ${source.table} s JOIN ${target.table} t ON ${on}`,
      )
      .run(rt);
  }

  private view(relation: ParsedRelationType, rt: number, rows: Record<string, string>[]): void {
    if (relation.mapping.kind !== 'data_view') return;
    const { source, target } = this.tables(relation);
    const mapping = relation.mapping;
    const viewProps = [
      ...new Set([...mapping.source, ...mapping.target].map((entry) => entry.viewProperty)),
    ];
    const viewTable = `view_${rt}`;
    const viewColumn = (name: string): string => `v${viewProps.indexOf(name)}`;
    this.index.db.exec(
      `CREATE TEMP TABLE ${viewTable} (${viewProps.map((_, i) => `v${i} TEXT`).join(', ')})`,
    );
    const insert = this.index.db.prepare(
      `INSERT INTO ${viewTable} VALUES (${viewProps.map(() => '?').join(', ')})`,
    );
    for (const row of rows)
      insert.run(
        ...viewProps.map((name) =>
          row[name] === undefined || row[name] === '' ? null : row[name],
        ),
      );
    const sourceOn = mapping.source.map(
      (entry) => `s.${source.column(entry.objectProperty)} = v.${viewColumn(entry.viewProperty)}`,
    );
    const targetOn = mapping.target.map(
      (entry) => `t.${target.column(entry.objectProperty)} = v.${viewColumn(entry.viewProperty)}`,
    );
    this.index.db
      .prepare(
        `INSERT OR IGNORE INTO edges SELECT ?, s._rowid, t._rowid FROM ${viewTable} v ` +
          `JOIN ${source.table} s ON ${sourceOn.join(' AND ')} JOIN ${target.table} t ON ${targetOn.join(' AND ')}`,
      )
      .run(rt);
    this.index.db.exec(`DROP TABLE ${viewTable}`);
  }
}
