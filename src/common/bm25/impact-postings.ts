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

/**
 * Writes, per term of an FTS5 table, its idf and its postings in rowid order (Int32 rowids, Float64
 * parts: the term adds `idf * part` to that row's `bm25()`) and its best RANKED_PREFIX postings by descending impact, then rowid
 * (Float64 pairs of rowid and part: a one-term query's top k is their first k). Terms come from FTS5's own index, so they are FTS5's tokens. A term's
 * share depends only on the term and the row, so it is computed here once, at build time.
 */
const BATCH_ROWS = 200_000;
/** Postings kept in impact order per term: a one-term top k up to this size is a prefix read. */
export const RANKED_PREFIX = 1000;

export function buildImpactPostings(db: Database.Database, spec: PostingsSpec): void {
  db.exec(
    `CREATE TABLE ${spec.postings} (term TEXT PRIMARY KEY, idf REAL NOT NULL, rowids BLOB NOT NULL, ` +
      'parts BLOB NOT NULL, ranked BLOB NOT NULL, max_impact REAL NOT NULL) WITHOUT ROWID',
  );
  const { lengths, rowCount, averageTokens } = rowLengths(db, spec.fts);
  if (rowCount === 0) return;
  const insert = db.prepare(`INSERT INTO ${spec.postings} VALUES (?, ?, ?, ?, ?, ?)`);
  const ln = db.prepare('SELECT ln(?)').pluck();
  const vocab = `${spec.fts}_instances`;
  db.exec(`CREATE VIRTUAL TABLE temp.${vocab} USING fts5vocab(main, ${spec.fts}, 'instance')`);
  const rowids: number[] = [];
  const counts: number[] = [];
  let term: string | undefined;
  const add = (doc: number, weight: number): void => {
    const previous = rowids[rowids.length - 1];
    if (previous === doc) counts[counts.length - 1] += weight;
    else if (previous > doc) throw new Error('fts5vocab rows out of rowid order');
    else {
      rowids.push(doc);
      counts.push(weight);
    }
  };
  const flush = (): void => {
    if (term === undefined || rowids.length === 0) return;
    const idf = bm25Idf(rowCount, rowids.length, (x) => ln.get(x) as number);
    const parts = counts.map((count, i) => bm25Part(count, lengths.get(rowids[i]) ?? 0, averageTokens));
    const impacts = parts.map((part) => idf * part);
    const best = bestFirst(impacts, RANKED_PREFIX);
    const pairs = best.flatMap((i) => [rowids[i], parts[i]]);
    insert.run(term, idf, int32Blob(rowids), float64Blob(parts), float64Blob(pairs), impacts[best[0]]);
    rowids.length = 0;
    counts.length = 0;
  };
  // better-sqlite3 cannot write while a statement iterates, so the vocabulary is read in batches of whole terms.
  const batch = db.prepare(`SELECT term, doc, col FROM temp.${vocab} WHERE term >= ? LIMIT ?`).raw();
  db.transaction(() => {
    let from = '';
    let size = BATCH_ROWS;
    for (;;) {
      const rows = batch.all(from, size) as [string, number, string][];
      const last = rows.length === size ? rows[rows.length - 1][0] : undefined;
      if (last !== undefined && rows[0][0] === last) {
        size *= 2; // one term has more rows than a batch
        continue;
      }
      for (const [token, doc, column] of rows) {
        if (token === last) break;
        if (token !== term) {
          flush();
          term = token;
        }
        add(doc, spec.weights.get(column) ?? 1);
      }
      flush();
      term = undefined;
      if (last === undefined) break;
      from = last;
    }
  })();
  db.exec(`DROP TABLE temp.${vocab}`);
}

/** Positions of the `count` largest impacts, largest first, equal impacts in rowid (= position) order. */
function bestFirst(impacts: number[], count: number): number[] {
  let positions = impacts.map((_, i) => i);
  if (impacts.length > count) {
    // The count-th largest impact by a native typed-array sort; only positions at or above it are sorted.
    const cutoff = Float64Array.from(impacts).sort()[impacts.length - count];
    positions = positions.filter((i) => impacts[i] >= cutoff);
  }
  return positions.sort((a, b) => impacts[b] - impacts[a] || a - b).slice(0, count);
}

/** Token count per row and the table's mean, from FTS5's own `_docsize` (one varint per column). */
function rowLengths(
  db: Database.Database,
  fts: string,
): { lengths: Map<number, number>; rowCount: number; averageTokens: number } {
  const lengths = new Map<number, number>();
  let total = 0;
  for (const [id, sizes] of db.prepare(`SELECT id, sz FROM ${fts}_docsize`).raw().iterate() as IterableIterator<
    [number, Buffer]
  >) {
    const length = sumOfVarints(sizes);
    lengths.set(id, length);
    total += length;
  }
  return { lengths, rowCount: lengths.size, averageTokens: lengths.size === 0 ? 0 : total / lengths.size };
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

const int32Blob = (values: number[]): Buffer => Buffer.from(Int32Array.from(values).buffer);
const float64Blob = (values: number[]): Buffer => Buffer.from(Float64Array.from(values).buffer);
