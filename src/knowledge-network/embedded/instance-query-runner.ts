import { LRUCache } from 'lru-cache';
import { InstanceQuery, ObjectInstance } from '../knowledge-network.types';
import { CompiledCondition, ConditionContext, withClause } from './condition-compiler';
import { keywordMatches, keywordTopK } from '../../common/bm25/keyword-top-k';
import { Glossary } from './glossary';
import { NetworkIndex, ScoredRowid } from './network-index';
import { ObjectTable } from './object-table';
import { columnValues, Row, rowToInstance, selectColumns, valuesToInstance } from './row-mapping';
import { Shortlist } from './shortlist';
import { ftsQuery, queryWords } from '../../common/search/text-segmenter';
import { LIMIT_PARAMETER } from '../../common/sqlite/limit-parameter';

/**
 * Bytes each cache of a runner may hold (estimated): KN_QUERY_CACHE_SIZE counts entries, and one entry
 * can be a thousand rows or ten thousand scores, so the count alone does not bound a worker's memory.
 */
const CACHE_BYTES = 16 * 1024 * 1024;

/** A rough size of cached rows: 16 bytes a value plus two a character of text. */
function rowsBytes(rows: readonly Row[]): number {
  let bytes = 64;
  for (const row of rows) {
    for (const value of Object.values(row)) bytes += 16 + (typeof value === 'string' ? 2 * value.length : 0);
  }
  return bytes;
}

/** Runs compiled conditions against one network's tables; relevance-ordered when the condition scores. */
export class InstanceQueryRunner implements ConditionContext {
  /**
   * Results of relevance-scored queries. The store is immutable once loaded, so an entry never goes
   * stale; repeated agent queries skip FTS5, which scores every matching row (no early termination).
   */
  private readonly scored?: LRUCache<string, readonly Row[]>;
  /** The AND-or-OR choice per (table, column, text), which otherwise costs an FTS probe per query. */
  private readonly expressions?: LRUCache<string, string>;
  /** Keyword top k per (table, k, text); 'fts5' where FTS5 has to answer. */
  private readonly topKs?: LRUCache<string, readonly ScoredRowid[] | 'fts5'>;

  constructor(
    private readonly index: NetworkIndex,
    cacheSize = 0,
    private readonly glossary = new Glossary(),
  ) {
    if (cacheSize > 0) {
      const bounded = { max: cacheSize, maxSize: CACHE_BYTES };
      this.scored = new LRUCache({ ...bounded, sizeCalculation: (rows, key) => rowsBytes(rows) + 2 * key.length });
      this.expressions = new LRUCache({ ...bounded, sizeCalculation: (value, key) => 2 * (value.length + key.length) });
      this.topKs = new LRUCache({
        ...bounded,
        sizeCalculation: (hits, key) => 64 + 2 * key.length + (hits === 'fts5' ? 0 : 32 * hits.length),
      });
    }
  }

  /**
   * The `matchExpression` rows' bm25 top k from the table's impact postings: AND of the words, OR when no
   * instance has them all; undefined when FTS5 must answer instead.
   */
  keywordTopK(table: ObjectTable, text: string, k: number): ScoredRowid[] | undefined {
    const key = `${table.fts}\u0000${k}\u0000${text}`;
    const known = this.topKs?.get(key);
    if (known !== undefined) return known === 'fts5' ? undefined : [...known];
    const search = this.index.keywordTopK(table);
    const words = queryWords(this.glossary.rewrite(text), table.commonTerms);
    const hits = !search
      ? undefined
      : words.length === 0
        ? []
        : keywordTopK(search, words, { k, everyFirst: true })?.hits;
    this.topKs?.set(key, hits ? Object.freeze(hits) : 'fts5');
    return hits;
  }

  /**
   * `{c3} : (…)` restricts an FTS5 expression to one column; AND of words first, OR when AND finds nothing.
   * The text is rewritten by the network's glossary first.
   */
  matchExpression(table: ObjectTable, column: string | undefined, text: string): string {
    if (!this.expressions) return this.chooseExpression(table, column, text);
    const key = `${table.fts}\u0000${column ?? ''}\u0000${text}`;
    let expression = this.expressions.get(key);
    if (expression === undefined) {
      expression = this.chooseExpression(table, column, text);
      this.expressions.set(key, expression);
    }
    return expression;
  }

  private chooseExpression(table: ObjectTable, column: string | undefined, text: string): string {
    const scope = (expression: string): string => (column ? `{${column}} : (${expression})` : expression);
    const query = this.glossary.rewrite(text);
    const all = ftsQuery(query, 'AND', table.commonTerms);
    if (all === '') return '';
    if (this.matches(table, column, query, all, true)) return scope(all);
    return scope(ftsQuery(query, 'OR', table.commonTerms));
  }

  /**
   * How well the table's instances match the text, as `matchExpression` would find: 1 when one instance
   * has every word, 0.5 when instances have only some (of several), 0 when none.
   */
  matchCoverage(table: ObjectTable, text: string): number {
    const query = this.glossary.rewrite(text);
    const all = ftsQuery(query, 'AND', table.commonTerms);
    if (all === '') return 0;
    if (this.matches(table, undefined, query, all, true)) return 1;
    const any = ftsQuery(query, 'OR', table.commonTerms);
    return any.includes(' OR ') && this.matches(table, undefined, query, any, false) ? 0.5 : 0;
  }

  /** Whether an expression of the query's words matches: from the postings when they can tell, else FTS5. */
  private matches(table: ObjectTable, column: string | undefined, query: string, expression: string, every: boolean) {
    const search = column ? undefined : this.index.keywordTopK(table);
    const known = search && keywordMatches(search, queryWords(query, table.commonTerms), every);
    return known ?? this.index.hasMatch(table, column ? `{${column}} : (${expression})` : expression);
  }

  rows(table: ObjectTable, compiled: CompiledCondition, limit: number, orderBy?: string): readonly Row[] {
    if (!orderBy && loneRanking(compiled)) {
      const ranked = this.hitRows(table, compiled.ranked!.slice(0, limit));
      const rows = ranked.map(({ hit, columns }): Row => ({ ...rowOf(table, columns), _score: hit.score }));
      return rows.length >= limit ? rows : rows.concat(this.unrankedRest(table, compiled, limit - rows.length));
    }
    const { sql, params } = this.select(table, compiled, limit, orderBy);
    const run = (): Row[] => this.index.prepare(sql).all(...params) as Row[];
    if (!this.scored || compiled.sets.length === 0) return run();
    const key = `${sql}\u0000${JSON.stringify(params)}`;
    let rows = this.scored.get(key);
    if (!rows) {
      rows = Object.freeze(run().map((row) => Object.freeze(row)));
      this.scored.set(key, rows);
    }
    return rows;
  }

  /**
   * The condition's instances, best first when it scores. With a `shortlist` (see InstanceQuery), a row
   * past its first few is kept only when named like the query (or, unscored, holding it as a value); for
   * a lone ranked match that is decided on a read of the display names only (see Shortlist.probe), so
   * only the kept rows are read whole and become instances.
   */
  instances(
    table: ObjectTable,
    compiled: CompiledCondition,
    limit: number,
    properties?: string[],
    shortlisted?: InstanceQuery['shortlist'],
  ): ObjectInstance[] {
    const shortlist = shortlisted && new Shortlist(table, shortlisted);
    if (!loneRanking(compiled)) {
      const instances = this.rows(table, compiled, limit).map((row) => rowToInstance(table, row, properties));
      return shortlist
        ? instances.filter((instance, position) => shortlist.keepsInstance(position, instance))
        : instances;
    }
    let hits = compiled.ranked!.slice(0, limit);
    // How many rows the ranked hits are, the shortlist's positions counting on into the unranked rest.
    let found: number | undefined;
    if (shortlist && hits.length > shortlist.first) {
      // The first few are kept whatever they hold: only the rows past them are probed, and of those only
      // the ones whose name signature can match the query. Every hit is a row of this index, the ranked
      // hits' positions are theirs whether read or not.
      const rest = hits.slice(shortlist.first);
      const signatures = this.index.nameSignatures(table);
      const probed = signatures ? signatures.candidates(rest, shortlist.signature) : rest;
      const probes = probed.length > 0 ? this.byRowid(table, shortlist.probe(), probed) : new Map<number, unknown[]>();
      found = shortlist.first + (signatures ? rest.length : probes.size);
      const named = probed.filter((hit) => probes.has(hit.rowid) && shortlist.keepsScored(probes.get(hit.rowid)!));
      hits = hits.slice(0, shortlist.first).concat(named);
    }
    const instances: ObjectInstance[] = [];
    for (const { hit, columns } of this.hitRows(table, hits)) {
      const instance = valuesToInstance(table, columnValues(table, columns, 1), properties);
      instance._score = hit.score;
      instances.push(instance);
    }
    found ??= instances.length;
    if (found >= limit) return instances;
    this.unrankedRest(table, compiled, limit - found).forEach((row, i) => {
      const instance = rowToInstance(table, row, properties);
      if (!shortlist || shortlist.keepsInstance(found! + i, instance)) instances.push(instance);
    });
    return instances;
  }

  /** The `columns` (over alias `t`, `_rowid` first) of the hits' rows by rowid, read as arrays (about half the cost of objects). */
  private byRowid(table: ObjectTable, columns: string, hits: readonly ScoredRowid[]): Map<number, unknown[]> {
    const sql = `SELECT ${columns} FROM ${table.table} t WHERE t._rowid IN (SELECT value FROM json_each(?))`;
    const rows = this.index
      .prepare(sql)
      .raw(true)
      .all(JSON.stringify(hits.map((hit) => hit.rowid))) as unknown[][];
    return new Map(rows.map((row) => [row[0] as number, row]));
  }

  /** The hits' rows (see selectColumns) in the hits' order, each with its hit; a hit whose row is gone is left out. */
  private hitRows(table: ObjectTable, hits: readonly ScoredRowid[]): { hit: ScoredRowid; columns: unknown[] }[] {
    const read = this.byRowid(table, selectColumns(table), hits);
    const rows: { hit: ScoredRowid; columns: unknown[] }[] = [];
    for (const hit of hits) {
      const columns = read.get(hit.rowid);
      if (columns) rows.push({ hit, columns });
    }
    return rows;
  }

  /**
   * What `select` puts after a lone ranked match's hits while the limit is not reached: the rows only the
   * rest of the condition matches, unscored, by rowid (as ORDER BY puts NULL scores last). The hits are
   * left out here rather than in SQL, so the condition's test for them gets an empty set: SQLite then
   * probes only the other branches instead of reading every hit's row to throw it away (half the cost).
   */
  private unrankedRest(table: ObjectTable, compiled: CompiledCondition, count: number): Row[] {
    const hits = new Set(compiled.ranked!.map((hit) => hit.rowid));
    const sql =
      `WITH s0 AS (SELECT NULL AS rowid LIMIT 0) SELECT t.*, NULL AS _score FROM ${table.table} t ` +
      `WHERE ${compiled.where} ORDER BY t._rowid ${LIMIT_PARAMETER}`;
    const rows = this.index.prepare(sql).all(...compiled.params, count + hits.size) as Row[];
    return rows.filter((row) => !hits.has(row._rowid as number)).slice(0, count);
  }

  /**
   * The SELECT for a compiled condition, LIMIT included. Relevance-scored conditions sum their candidate
   * sets per row; ranked by relevance, only (rowid, score) pairs are sorted and the whole rows of the
   * `limit` best are read afterwards — sorting a thousand wide rows to keep fifty cost more than the
   * full-text search itself.
   */
  private select(
    table: ObjectTable,
    compiled: CompiledCondition,
    limit: number,
    orderBy?: string,
  ): { sql: string; params: unknown[] } {
    const prefix = withClause(compiled);
    if (compiled.sets.length === 0) {
      return {
        sql: `SELECT t.* FROM ${table.table} t WHERE ${compiled.where} ORDER BY ${orderBy ?? 't._rowid'} ${LIMIT_PARAMETER}`,
        params: [...compiled.params, limit],
      };
    }
    const { union, sums, picked, outer } = channelColumns(compiled);
    const scored =
      `FROM ${table.table} t ` +
      `LEFT JOIN (SELECT rowid, SUM(s) AS s${sums} FROM (${union}) GROUP BY rowid) sc ON sc.rowid = t._rowid ` +
      `WHERE ${compiled.where}`;
    const params = [...prefix.params, ...compiled.params, limit];
    if (orderBy) {
      return {
        sql: `${prefix.sql}SELECT t.*, sc.s AS _score${picked('sc')} ${scored} ORDER BY ${orderBy} ${LIMIT_PARAMETER}`,
        params,
      };
    }
    return {
      sql:
        `${prefix.sql}SELECT t.*, best.s AS _score${outer} FROM ` +
        `(SELECT t._rowid AS id, sc.s AS s${picked('sc')} ${scored} ORDER BY sc.s DESC, t._rowid ${LIMIT_PARAMETER}) best ` +
        `JOIN ${table.table} t ON t._rowid = best.id ORDER BY best.s DESC, t._rowid`,
      params,
    };
  }
}

/**
 * A lone ranked keyword match (see CompiledCondition.ranked): its hits best first, then the rows only the
 * rest of the condition matches, without joining, grouping and sorting in SQL.
 */
function loneRanking(compiled: CompiledCondition): boolean {
  return compiled.ranked !== undefined && compiled.sets.length === 1 && !compiled.channels;
}

/** A row read as columns (see selectColumns) as the object `SELECT t.*` would give. */
function rowOf(table: ObjectTable, columns: readonly unknown[]): Row {
  const row: Row = { _rowid: columns[0] };
  table.type.data_properties.forEach((_, position) => (row[`c${position}`] = columns[position + 1]));
  return row;
}

/**
 * The SQL pieces that carry each channel's own score next to the summed one, when asked for: the
 * candidate union tags every set with its channel, and the best row per channel is kept.
 */
function channelColumns(compiled: CompiledCondition): {
  union: string;
  sums: string;
  picked: (alias: string) => string;
  outer: string;
} {
  if (!compiled.channels) {
    return {
      union: compiled.sets.map((_, i) => `SELECT rowid, s FROM s${i}`).join(' UNION ALL '),
      sums: '',
      picked: () => '',
      outer: '',
    };
  }
  const union = compiled.sets
    .map((set, i) => `SELECT rowid, s, raw, ${set.channel === 'vector' ? 1 : 0} AS c FROM s${i}`)
    .join(' UNION ALL ');
  return {
    union,
    sums: ', MAX(CASE WHEN c = 0 THEN raw END) AS k, MAX(CASE WHEN c = 1 THEN raw END) AS v',
    picked: (alias) => `, ${alias}.k AS _score_keyword, ${alias}.v AS _score_vector`,
    outer: ', best._score_keyword, best._score_vector',
  };
}
