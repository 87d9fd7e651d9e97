import { AppException } from '../../common/errors/app.exception';
import { KnErrors } from '../knowledge-network.errors';
import {
  CONDITION_OPERATIONS,
  ConditionOperation,
  DataProperty,
  isConditionOperation,
  KnCondition,
} from '../knowledge-network.types';
import { ScoredRowid } from './network-index';
import { ObjectTable } from './object-table';
import { TEXT_TYPES } from './property-types';
import { LIMIT_PARAMETER } from '../../common/sqlite/limit-parameter';

export interface CompiledCondition {
  /** SQL boolean expression over alias `t`; only placeholders carry values. */
  where: string;
  params: unknown[];
  /**
   * Candidate sets `s0, s1, …` of match/knn leaves, as CTEs of (rowid, relevance s, the channel's own
   * score raw); `s` is summed into `_score`.
   */
  sets: CandidateSet[];
  /** Rows also carry each channel's own score (`_score_keyword`, `_score_vector`). */
  channels?: boolean;
  /**
   * Set when the only scored leaf is a keyword top k reached through ORs alone: every hit satisfies the
   * condition and no other row scores, so the relevance order starts with these hits (best first).
   */
  ranked?: readonly ScoredRowid[];
}

/** Where a candidate set's relevance comes from. */
export type SearchChannel = 'keyword' | 'vector';

export interface CandidateSet {
  sql: string;
  params: unknown[];
  channel: SearchChannel;
}

/** A candidate: `score` is what is summed into the rank, `raw` the channel's own score (bm25, cosine). */
export interface CandidateHit {
  rowid: number;
  score: number;
  raw?: number;
}

export interface ConditionContext {
  /** FTS5 expression for a match value over one FTS column (or all): AND of words, OR when AND finds nothing. */
  matchExpression(table: ObjectTable, column: string | undefined, text: string): string;
  /** At most this many keyword candidates per match (best first); bounds work on very common words. */
  matchCandidates?: number;
  /**
   * The best `k` instances for a `*` match, ranked as `bm25` ranks `matchExpression`'s rows (−bm25 as the
   * score), without scoring every match; undefined when only FTS5 can answer.
   */
  keywordTopK?(table: ObjectTable, text: string, k: number): ScoredRowid[] | undefined;
  /** Results are ordered by relevance and cut at this many rows, so a lone keyword match needs no more. */
  rankedLimit?: number;
  /** Precomputed knn hits for a leaf; undefined when no embeddings are configured. */
  knnHits?(leaf: KnCondition): CandidateHit[] | undefined;
  /** Multiplier of the keyword channel's reciprocal ranks when fused with vector ranks (default 1). */
  keywordWeight?: number;
  /** Report each channel's own score per row (see CompiledCondition.channels). */
  scoreChannels?: boolean;
}

const COMPARISONS: Record<string, string> = {
  '==': '=',
  '!=': '!=',
  '>': '>',
  '>=': '>=',
  '<': '<',
  '<=': '<=',
};
const MAX_MATCH_CANDIDATES = 10000;
/** Keyword ranks fused with vector ranks: RRF fuses each channel's top list (a rank past it adds < 1/260). */
const FUSED_KEYWORD_DEPTH = 200;
type Scalar = string | number;

const invalid = (path: string, problem: string): AppException =>
  new AppException(KnErrors.InvalidCondition, `${path}: ${problem}`);

/**
 * Compiles a KnCondition tree for one object type into parameterised SQL. Fields are checked against
 * the type's data properties and mapped to generated column names; values only ever become parameters.
 * Sizes (depth, node count, list length, text length) were bounded by the service's InputLimits.
 */
export class ConditionCompiler {
  compile(condition: unknown, table: ObjectTable, context: ConditionContext): CompiledCondition {
    const out: CompiledCondition = { where: '1', params: [], sets: [], channels: context.scoreChannels === true };
    if (condition === undefined || condition === null) return out;
    const scope: LeafScope = { searchLeaves: countSearchLeaves(condition), underOrOnly: true };
    out.where = this.node(condition, 'condition', table, context, out, scope);
    return out;
  }

  private node(
    raw: unknown,
    path: string,
    table: ObjectTable,
    context: ConditionContext,
    out: CompiledCondition,
    scope: LeafScope,
  ): string {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(path, 'must be an object');
    const condition = raw as KnCondition;
    const operation: unknown = condition.operation;
    if (!isConditionOperation(operation)) {
      throw invalid(`${path}.operation`, `must be one of ${CONDITION_OPERATIONS.join(', ')}`);
    }
    if (condition.value_from !== undefined && condition.value_from !== 'const') {
      throw invalid(`${path}.value_from`, 'only "const" is supported');
    }
    if (operation === 'and' || operation === 'or') {
      const subs = condition.sub_conditions ?? [];
      if (!Array.isArray(subs)) throw invalid(`${path}.sub_conditions`, 'must be an array');
      if (subs.length === 0) return operation === 'and' ? '1' : '0';
      const inner = { ...scope, underOrOnly: scope.underOrOnly && operation === 'or' };
      const parts = subs.map((sub, i) => this.node(sub, `${path}.sub_conditions[${i}]`, table, context, out, inner));
      return `(${parts.join(operation === 'and' ? ' AND ' : ' OR ')})`;
    }
    return this.leaf(condition, operation, path, table, context, out, scope);
  }

  private leaf(
    condition: KnCondition,
    operation: ConditionOperation,
    path: string,
    table: ObjectTable,
    context: ConditionContext,
    out: CompiledCondition,
    scope: LeafScope,
  ): string {
    const field = condition.field;
    if (typeof field !== 'string' || field === '') throw invalid(`${path}.field`, 'is required');
    if (operation === 'knn' && !context.knnHits) {
      throw new AppException(
        KnErrors.KnnUnavailable,
        'knn needs embeddings: set EMBEDDING_URL, or use match for keyword search',
      );
    }
    if (field === '*' && (operation === 'match' || operation === 'knn'))
      return this.search(condition, operation, undefined, path, { table, context, out, scope });
    const property = table.property(field);
    if (!property) {
      const known = table.propertyNames.slice(0, 30).join(', ');
      throw new AppException(
        KnErrors.UnknownField,
        `field "${field.slice(0, 100)}" is not a property of object type "${table.type.id}" (properties: ${known})`,
      );
    }
    if (!property.condition_operations.includes(operation)) {
      throw new AppException(
        KnErrors.UnsupportedOperation,
        `operation "${operation}" cannot be applied to ${property.type} property "${field}" (allowed: ${property.condition_operations.join(', ')})`,
      );
    }
    const column = `t.${table.column(field)}`;
    if (operation === 'match' || operation === 'knn')
      return this.search(condition, operation, property, path, { table, context, out, scope });
    if (operation === 'exist') return `${column} IS NOT NULL`;
    if (operation === 'not_exist') return `${column} IS NULL`;
    if (COMPARISONS[operation]) {
      out.params.push(this.scalar(condition.value, property, `${path}.value`));
      return operation === '!=' ? `(${column} IS NULL OR ${column} != ?)` : `${column} ${COMPARISONS[operation]} ?`;
    }
    if (operation === 'in' || operation === 'not_in') {
      const list = this.list(condition.value, property, `${path}.value`);
      out.params.push(JSON.stringify(list));
      const test = `${column} IN (SELECT value FROM json_each(?))`;
      return operation === 'in' ? test : `(${column} IS NULL OR NOT ${test})`;
    }
    if (operation === 'range') {
      const bounds = condition.value;
      if (!Array.isArray(bounds) || bounds.length !== 2) throw invalid(`${path}.value`, 'range needs [from, to]');
      out.params.push(
        this.scalar(bounds[0], property, `${path}.value[0]`),
        this.scalar(bounds[1], property, `${path}.value[1]`),
      );
      return `(${column} >= ? AND ${column} <= ?)`;
    }
    return this.like(condition, operation, column, path, out);
  }

  private like(
    condition: KnCondition,
    operation: ConditionOperation,
    column: string,
    path: string,
    out: CompiledCondition,
  ): string {
    if (typeof condition.value !== 'string') throw invalid(`${path}.value`, `${operation} needs a string`);
    const value = condition.value;
    // A value with % is a LIKE pattern; otherwise it is a substring, with _ and \ taken literally.
    out.params.push(value.includes('%') ? value : `%${value.replace(/[\\_]/g, (c) => `\\${c}`)}%`);
    const test = `${column} LIKE ? ESCAPE '\\'`;
    return operation === 'like' ? test : `(${column} IS NULL OR NOT ${test})`;
  }

  private search(
    condition: KnCondition,
    operation: ConditionOperation,
    property: DataProperty | undefined,
    path: string,
    { table, context, out, scope }: SearchSite,
  ): string {
    if (typeof condition.value !== 'string' || condition.value.trim() === '')
      throw invalid(`${path}.value`, `${operation} needs a non-empty string`);
    if (operation === 'knn') {
      const hits = context.knnHits?.(condition);
      if (!hits) {
        throw new AppException(KnErrors.KnnUnavailable, 'knn needs embeddings: set EMBEDDING_URL, or use match');
      }
      return `t._rowid IN (SELECT rowid FROM ${this.hitSet(hits, out, 'vector')})`;
    }
    const vectorHits = property ? undefined : context.knnHits?.(condition);
    const keyword =
      table.textProperties.length === 0
        ? undefined
        : (this.postingsKeyword(condition.value, property, vectorHits, { table, context, out, scope }) ??
          this.ftsKeyword(condition.value, property, vectorHits !== undefined, table, context, out));
    const vector = vectorHits ? this.hitSet(vectorHits, out, 'vector') : undefined;
    const tests = [keyword, vector]
      .filter((name) => name !== undefined)
      .map((name) => `t._rowid IN (SELECT rowid FROM ${name})`);
    if (tests.length === 0) return '0';
    return tests.length === 1 ? tests[0] : `(${tests.join(' OR ')})`;
  }

  /**
   * The keyword set from the postings, or undefined when FTS5 must answer (a column match, or words FTS5
   * reads as phrases). A lone keyword match that every result row passes through (OR all the way up) and
   * that is ranked and cut at `rankedLimit` needs only that many candidates; otherwise as many as FTS5 gave.
   * Fused with vector hits under the same conditions, a keyword hit ranked past `rankedLimit` that the
   * vectors did not find cannot reach the cut (that many rank above it on keywords alone), so it is left
   * out of the candidate set.
   */
  private postingsKeyword(
    text: string,
    property: DataProperty | undefined,
    vectorHits: CandidateHit[] | undefined,
    { table, context, out, scope }: SearchSite,
  ): string | undefined {
    if (property || !context.keywordTopK) return undefined;
    const fused = vectorHits !== undefined;
    const cap = context.matchCandidates ?? MAX_MATCH_CANDIDATES;
    const cut = scope.underOrOnly ? context.rankedLimit : undefined;
    const lone = !fused && scope.searchLeaves === 1 && cut !== undefined;
    const depth = lone ? Math.min(cap, cut) : fused ? Math.min(cap, Math.max(FUSED_KEYWORD_DEPTH, cut ?? 0)) : cap;
    const hits = context.keywordTopK(table, text, depth);
    if (!hits) return undefined;
    if (!fused) {
      if (lone) out.ranked = hits;
      return this.hitSet(hits, out, 'keyword');
    }
    // Keyword relevance is its (weighted) reciprocal rank (k=60) when fused with vector ranks.
    const weight = context.keywordWeight ?? 1;
    const alsoVector = new Set(vectorHits.map((hit) => hit.rowid));
    const ranked = hits
      .map((hit, rank) => ({ rowid: hit.rowid, score: weight / (61 + rank), raw: hit.score, rank }))
      .filter((hit) => cut === undefined || hit.rank < cut || alsoVector.has(hit.rowid))
      .map(({ rowid, score, raw }) => ({ rowid, score, raw }));
    return this.hitSet(ranked, out, 'keyword');
  }

  private ftsKeyword(
    text: string,
    property: DataProperty | undefined,
    fused: boolean,
    table: ObjectTable,
    context: ConditionContext,
    out: CompiledCondition,
  ): string | undefined {
    const column = property ? table.column(property.name) : undefined;
    const expression = context.matchExpression(table, column, text);
    if (expression === '') return undefined;
    const cap = context.matchCandidates ?? MAX_MATCH_CANDIDATES;
    const ranked = `SELECT rowid, ${table.bm25} AS b FROM ${table.fts} WHERE ${table.fts} MATCH ? ORDER BY b ${LIMIT_PARAMETER}`;
    // The weight is a number from config, never request input, so it is written into the SQL.
    const weight = Number(context.keywordWeight ?? 1).toFixed(6);
    return this.set(out, {
      sql: fused
        ? `SELECT rowid, ${weight} / (60 + row_number() OVER (ORDER BY b)) AS s, -b AS raw FROM (${ranked})`
        : `SELECT rowid, -b AS s, -b AS raw FROM (${ranked})`,
      params: [expression, cap],
      channel: 'keyword',
    });
  }

  /** Adds a `(rowid, s, raw)` candidate set (a CTE) and returns its name. */
  private set(out: CompiledCondition, set: CandidateSet): string {
    out.sets.push(set);
    return `s${out.sets.length - 1}`;
  }

  /**
   * A set of hits known here. Their JSON is written only when SQL reads the set: a lone ranked match's
   * rows are read by rowid (InstanceQueryRunner), so its set never reaches SQL.
   */
  private hitSet(hits: CandidateHit[], out: CompiledCondition, channel: SearchChannel): string {
    let params: unknown[] | undefined;
    return this.set(out, {
      sql: "SELECT json_extract(value, '$[0]') AS rowid, json_extract(value, '$[1]') AS s, json_extract(value, '$[2]') AS raw FROM json_each(?)",
      get params() {
        return (params ??= [JSON.stringify(hits.map((hit) => [hit.rowid, hit.score, hit.raw ?? hit.score]))]);
      },
      channel,
    });
  }

  private scalar(value: unknown, property: DataProperty, path: string): Scalar {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw invalid(path, `must be a ${TEXT_TYPES.has(property.type) ? 'string' : property.type} value`);
    }
    if (property.type === 'boolean') {
      if (value === true || value === 'true' || value === 1) return 1;
      if (value === false || value === 'false' || value === 0) return 0;
      throw invalid(path, `"${String(value)}" is not a boolean`);
    }
    if (['integer', 'float', 'decimal'].includes(property.type)) {
      const number = typeof value === 'number' ? value : Number(String(value).trim());
      if (!Number.isFinite(number) || String(value).trim() === '')
        throw invalid(path, `"${String(value)}" is not a number`);
      return number;
    }
    return String(value);
  }

  private list(value: unknown, property: DataProperty, path: string): Scalar[] {
    if (!Array.isArray(value)) throw invalid(path, 'must be an array');
    return value.map((item, i) => this.scalar(item, property, `${path}[${i}]`));
  }
}

/** Where a leaf sits: how many match/knn leaves the whole condition has, and whether only ORs are above it. */
interface LeafScope {
  searchLeaves: number;
  underOrOnly: boolean;
}

interface SearchSite {
  table: ObjectTable;
  context: ConditionContext;
  out: CompiledCondition;
  scope: LeafScope;
}

/** match and knn leaves in a condition (its size was bounded by the input limits before compiling). */
function countSearchLeaves(node: unknown): number {
  if (!node || typeof node !== 'object') return 0;
  const condition = node as KnCondition;
  if (condition.operation === 'match' || condition.operation === 'knn') return 1;
  const subs = Array.isArray(condition.sub_conditions) ? (condition.sub_conditions as unknown[]) : [];
  return subs.reduce((count: number, sub) => count + countSearchLeaves(sub), 0);
}

/** The `WITH` clause (and its parameters, which come first) for a compiled condition's candidate sets. */
export function withClause(compiled: CompiledCondition): { sql: string; params: unknown[] } {
  if (compiled.sets.length === 0) return { sql: '', params: [] };
  const ctes = compiled.sets.map((set, i) => `s${i} AS MATERIALIZED (${set.sql})`);
  return { sql: `WITH ${ctes.join(', ')} `, params: compiled.sets.flatMap((set) => set.params) };
}
