import { ObjectInstance } from '../knowledge-network.types';
import { CompiledCondition, ConditionContext, withClause } from './condition-compiler';
import { NetworkIndex } from './network-index';
import { ObjectTable } from './object-table';
import { ftsQuery } from './text-segmenter';

type Row = Record<string, unknown>;

/** Runs compiled conditions against one network's tables; relevance-ordered when the condition scores. */
export class InstanceQueryRunner implements ConditionContext {
  constructor(private readonly index: NetworkIndex) {}

  /** `{c3} : (…)` restricts an FTS5 expression to one column; AND of words first, OR when AND finds nothing. */
  matchExpression(table: ObjectTable, column: string | undefined, text: string): string {
    const scope = (expression: string): string =>
      column ? `{${column}} : (${expression})` : expression;
    const all = ftsQuery(text, 'AND', table.commonTerms);
    if (all === '') return '';
    const probe = this.index.prepare(
      `SELECT 1 FROM ${table.fts} WHERE ${table.fts} MATCH ? LIMIT 1`,
    );
    if (probe.get(scope(all))) return scope(all);
    return scope(ftsQuery(text, 'OR', table.commonTerms));
  }

  rows(table: ObjectTable, compiled: CompiledCondition, limit: number, orderBy?: string): Row[] {
    const { sql, params } = this.select(table, compiled, orderBy);
    return this.index.prepare(`${sql} LIMIT ?`).all(...params, limit) as Row[];
  }

  instances(
    table: ObjectTable,
    compiled: CompiledCondition,
    limit: number,
    properties?: string[],
  ): ObjectInstance[] {
    return this.rows(table, compiled, limit).map((row) =>
      this.index.toInstance(table, row, properties),
    );
  }

  /** The SELECT (without LIMIT) for a compiled condition: relevance summed per row, best first. */
  select(
    table: ObjectTable,
    compiled: CompiledCondition,
    orderBy?: string,
  ): { sql: string; params: unknown[] } {
    const prefix = withClause(compiled);
    if (compiled.sets.length === 0) {
      return {
        sql: `SELECT t.* FROM ${table.table} t WHERE ${compiled.where} ORDER BY ${orderBy ?? 't._rowid'}`,
        params: compiled.params,
      };
    }
    const union = compiled.sets.map((_, i) => `SELECT rowid, s FROM s${i}`).join(' UNION ALL ');
    return {
      sql:
        `${prefix.sql}SELECT t.*, sc.s AS _score FROM ${table.table} t ` +
        `LEFT JOIN (SELECT rowid, SUM(s) AS s FROM (${union}) GROUP BY rowid) sc ON sc.rowid = t._rowid ` +
        `WHERE ${compiled.where} ORDER BY ${orderBy ?? 'sc.s DESC, t._rowid'}`,
      params: [...prefix.params, ...compiled.params],
    };
  }
}
