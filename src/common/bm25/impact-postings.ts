import type Database from 'better-sqlite3';
import { bm25Idf, bm25Part } from './bm25';

/** Where an FTS5 table's impact postings go, and the column weights its `bm25()` call uses. */
export interface PostingsSpec {
  /** The FTS5 table (contentless or not) whose tokens are read back through fts5vocab. */
  fts: string;
  /** The table written: `<postings>(term PRIMARY KEY, idf, rowids, parts, ranked, max_impact)`. */
  postings: string;
  /** Weight per FTS column name, as passed to `bm25()`; a column not listed weighs 1. */
  weights: ReadonlyMap<string, number>;
}

const BATCH_ROWS = 50_000;
/** Postings kept in impact order per term: a one-term top k up to this size is a prefix read. */
export const RANKED_PREFIX = 1000;

/**
 * Writes, per term of an FTS5 table, its idf and its postings in rowid order (Int32 rowids, Float64
 * parts: the term adds `idf * part` to that row's `bm25()`) and its best RANKED_PREFIX postings by descending impact, then rowid
 * (Float64 pairs of rowid and part: a one-term query's top k is their first k). Terms come from FTS5's own index, so they are FTS5's tokens. A term's
 * share depends only on the term and the row, so it is computed here once, at build time.
 *
 * `batchRows`: vocabulary rows read into the heap at a time. A term with more is read on in one pass,
 * so the heap holds one batch and one term's postings (typed arrays, 12 bytes a row), never more.
 */
export function buildImpactPostings(db: Database.Database, spec: PostingsSpec, batchRows = BATCH_ROWS): void {
  db.exec(
    `CREATE TABLE ${spec.postings} (term TEXT PRIMARY KEY, idf REAL NOT NULL, rowids BLOB NOT NULL, ` +
      'parts BLOB NOT NULL, ranked BLOB NOT NULL, max_impact REAL NOT NULL) WITHOUT ROWID',
  );
  const lengths = rowLengths(db, spec.fts);
  if (lengths.rowCount === 0) return;
  const insert = db.prepare(`INSERT INTO ${spec.postings} VALUES (?, ?, ?, ?, ?, ?)`);
  const ln = db.prepare('SELECT ln(?)').pluck();
  const vocab = `${spec.fts}_instances`;
  db.exec(`CREATE VIRTUAL TABLE temp.${vocab} USING fts5vocab(main, ${spec.fts}, 'instance')`);
  const postings = new TermPostings();
  let term: string | undefined;
  const flush = (): void => {
    if (term !== undefined && postings.length > 0) {
      const { rowids, counts } = postings.view();
      const idf = bm25Idf(lengths.rowCount, rowids.length, (x) => ln.get(x) as number);
      const parts = counts.map((count, i) => bm25Part(count, lengths.of(rowids[i]), lengths.averageTokens));
      const impacts = parts.map((part) => idf * part);
      const best = bestFirst(impacts, RANKED_PREFIX);
      const pairs = new Float64Array(best.length * 2);
      best.forEach((position, i) => pairs.set([rowids[position], parts[position]], i * 2));
      insert.run(term, idf, typedBlob(rowids), typedBlob(parts), typedBlob(pairs), impacts[best[0]]);
    }
    postings.clear();
    term = undefined;
  };
  // better-sqlite3 cannot write while a statement iterates, so terms are read in batches of rows; a term
  // a batch stops inside is read to its end in one pass into `postings`, and written after it.
  const after = db.prepare(`SELECT term, doc, col FROM temp.${vocab} WHERE term > ? LIMIT ?`).raw();
  const rest = db.prepare(`SELECT doc, col FROM temp.${vocab} WHERE term = ? AND doc > ?`).raw();
  db.transaction(() => {
    let from = '';
    for (;;) {
      const rows = after.all(from, batchRows) as [string, number, string][];
      const full = rows.length === batchRows;
      const end = full ? completeRows(rows) : rows.length;
      for (let i = 0; i < end; i += 1) {
        const [token, doc, column] = rows[i];
        if (token !== term) {
          flush();
          term = token;
        }
        postings.add(doc, spec.weights.get(column) ?? 1);
      }
      if (!full) break;
      const last = rows[rows.length - 1][0];
      const readTo = last === term ? rows[end - 1][1] : Number.MIN_SAFE_INTEGER;
      if (last !== term) flush();
      term = last;
      for (const [doc, column] of rest.iterate(last, readTo) as IterableIterator<[number, string]>)
        postings.add(doc, spec.weights.get(column) ?? 1);
      flush();
      from = last;
    }
    flush();
  })();
  db.exec(`DROP TABLE temp.${vocab}`);
}

/** How many of a full batch's rows to use: all but those of its last (term, row) pair, which may go on past it. */
function completeRows(rows: [string, number, string][]): number {
  const [lastTerm, lastDoc] = rows[rows.length - 1];
  let end = rows.length;
  while (end > 0 && rows[end - 1][0] === lastTerm && rows[end - 1][1] === lastDoc) end -= 1;
  return end;
}

/** One term's postings as they are read: rowids in ascending order, each with its weighted count. */
class TermPostings {
  private rowids = new Int32Array(1024);
  private counts = new Float64Array(1024);
  length = 0;

  add(doc: number, weight: number): void {
    const last = this.length - 1;
    if (last >= 0 && this.rowids[last] === doc) {
      this.counts[last] += weight;
      return;
    }
    if (last >= 0 && this.rowids[last] > doc) throw new Error('fts5vocab rows out of rowid order');
    if (this.length === this.rowids.length) this.grow();
    this.rowids[this.length] = doc;
    this.counts[this.length] = weight;
    this.length += 1;
  }

  view(): { rowids: Int32Array; counts: Float64Array } {
    return { rowids: this.rowids.subarray(0, this.length), counts: this.counts.subarray(0, this.length) };
  }

  clear(): void {
    this.length = 0;
  }

  private grow(): void {
    const rowids = new Int32Array(this.rowids.length * 2);
    rowids.set(this.rowids);
    const counts = new Float64Array(this.counts.length * 2);
    counts.set(this.counts);
    this.rowids = rowids;
    this.counts = counts;
  }
}

/** Positions of the `count` largest impacts, largest first, equal impacts in rowid (= position) order. */
function bestFirst(impacts: Float64Array, count: number): number[] {
  let positions: number[];
  if (impacts.length > count) {
    // The count-th largest impact by a native typed-array sort; only positions at or above it are sorted.
    const cutoff = Float64Array.from(impacts).sort()[impacts.length - count];
    positions = [];
    impacts.forEach((impact, i) => {
      if (impact >= cutoff) positions.push(i);
    });
  } else positions = Array.from(impacts, (_, i) => i);
  return positions.sort((a, b) => impacts[b] - impacts[a] || a - b).slice(0, count);
}

/** Token count per row, and the table's mean, from FTS5's own `_docsize` (one varint per column). */
interface RowLengths {
  rowCount: number;
  averageTokens: number;
  of(rowid: number): number;
}

/**
 * Kept in a typed array over the rowid range (4 bytes a row: a table's rowids are consecutive), or in
 * a Map when the rowids are sparse.
 */
function rowLengths(db: Database.Database, fts: string): RowLengths {
  const range = db.prepare(`SELECT min(id) AS low, max(id) AS high, count(*) AS count FROM ${fts}_docsize`).get() as {
    low: number | null;
    high: number | null;
    count: number;
  };
  const low = range.low ?? 0;
  const span = range.high === null ? 0 : range.high - low + 1;
  const dense = span <= range.count * 2 + 1024 ? new Int32Array(span) : undefined;
  const sparse = dense ? undefined : new Map<number, number>();
  let total = 0;
  for (const [id, sizes] of db.prepare(`SELECT id, sz FROM ${fts}_docsize`).raw().iterate() as IterableIterator<
    [number, Buffer]
  >) {
    const length = sumOfVarints(sizes);
    if (dense) dense[id - low] = length;
    else sparse!.set(id, length);
    total += length;
  }
  return {
    rowCount: range.count,
    averageTokens: range.count === 0 ? 0 : total / range.count,
    of: (rowid) => (dense ? (dense[rowid - low] ?? 0) : (sparse!.get(rowid) ?? 0)),
  };
}

/** SQLite's big-endian base-128 varints (FTS5 sizes stay far below the 9-byte form). */
function sumOfVarints(bytes: Buffer): number {
  let sum = 0;
  let value = 0;
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      sum += value;
      value = 0;
    }
  }
  return sum;
}

/** The array's bytes as a blob (a copy: a view may share a larger buffer). */
const typedBlob = (values: Int32Array | Float64Array): Buffer =>
  Buffer.from(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
