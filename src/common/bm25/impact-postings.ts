import type Database from 'better-sqlite3';
import { bm25Idf, bm25Part } from './bm25';
import { BLOCK_SIZE, Blocks, blocksOf, joinBlob, PAGE_SIZE } from './posting-list';
import { LIMIT_PARAMETER } from '../sqlite/limit-parameter';

/** Where an FTS5 table's impact postings go, and the column weights its `bm25()` call uses. */
export interface PostingsSpec {
  /** The FTS5 table (contentless or not) whose tokens are read back through fts5vocab. */
  fts: string;
  /** The tables written: `<postings>` (one row per term) and `<postings>_pages`. */
  postings: string;
  /** Weight per FTS column name, as passed to `bm25()`; a column not listed weighs 1. */
  weights: ReadonlyMap<string, number>;
}

export interface PostingsLayout {
  /** Vocabulary rows read into the heap at a time (a term with more is read on in one pass). */
  batchRows: number;
  /** Postings per block, whose best share is kept. */
  blockSize: number;
  /** Blocks per stored page. */
  pageBlocks: number;
  /**
   * The tiers of a paged list, as shares of its postings, ascending: a tier holds the list's best
   * postings, as many as the share allows without splitting equal shares (a tier that cannot is left out).
   */
  tierShares: readonly number[];
}

const LAYOUT: PostingsLayout = {
  batchRows: 50_000,
  blockSize: BLOCK_SIZE,
  pageBlocks: PAGE_SIZE / BLOCK_SIZE,
  tierShares: [1 / 256, 1 / 64, 1 / 16, 1 / 4],
};

/**
 * Writes, per term of an FTS5 table, its idf and its postings (the term adds `idf * part` to a row's
 * `bm25()`; a share depends only on the term and the row, so it is computed here once) in rowid order,
 * and its best page of postings in impact order (descending part, then rowid): a one-term top k up to
 * a page is that page's first k. A list longer than a page is cut into pages of `<postings>_pages`,
 * (Float64 parts, Int32 rowids) each: the rowid order's pages, then the impact page, from the term's
 * `first_page` on; the term row keeps, per block of `blockSize` postings in
 * rowid order, the block's best share and last rowid (`skips`; `page_blocks` blocks make a page), so
 * a search reads only the pages its bounds cannot rule out. A list of one page or less is stored in
 * the term row (`inline`, rowid order).
 *
 * A paged list also has tiers (see `tierShares`): its best postings, in rowid order, stored after its
 * impact page like a list of their own. The term row keeps, per tier, the best share of the postings
 * left out of it, how many it holds, its first page and how many blocks it has (`tiers`, four Float64
 * each), and the tiers' blocks one after the other (`tier_skips`). A search whose threshold rules out
 * every row left out of the tiers it draws from need not walk the whole lists (see tieredTopK).
 *
 * The heap holds one batch of vocabulary rows and one term's postings (typed arrays), never more.
 */
export function buildImpactPostings(
  db: Database.Database,
  spec: PostingsSpec,
  layout: Partial<PostingsLayout> = {},
): void {
  const { batchRows, blockSize, pageBlocks, tierShares } = { ...LAYOUT, ...layout };
  const pageSize = blockSize * pageBlocks;
  db.exec(
    `CREATE TABLE ${spec.postings} (term TEXT PRIMARY KEY, idf REAL NOT NULL, count INTEGER NOT NULL, ` +
      'max_impact REAL NOT NULL, first_page INTEGER, page_blocks INTEGER, skips BLOB, inline BLOB, tiers BLOB, ' +
      'tier_skips BLOB) WITHOUT ROWID',
  );
  db.exec(`CREATE TABLE ${spec.postings}_pages (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`);
  const lengths = rowLengths(db, spec.fts);
  if (lengths.rowCount === 0) return;
  const insert = db.prepare(`INSERT INTO ${spec.postings} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertPage = db.prepare(`INSERT INTO ${spec.postings}_pages (id, data) VALUES (?, ?)`);
  const ln = db.prepare('SELECT ln(?)').pluck();
  const vocab = `${spec.fts}_instances`;
  db.exec(`CREATE VIRTUAL TABLE temp.${vocab} USING fts5vocab(main, ${spec.fts}, 'instance')`);
  const postings = new TermPostingsBuffer();
  let term: string | undefined;
  let nextPage = 1;
  const flush = (): void => {
    if (term !== undefined && postings.length > 0) {
      const { rowids, counts } = postings.view();
      const idf = bm25Idf(lengths.rowCount, rowids.length, (x) => ln.get(x) as number);
      const parts = counts.map((count, i) => bm25Part(count, lengths.of(rowids[i]), lengths.averageTokens));
      const maxImpact = idf * parts.reduce((best, part) => Math.max(best, part), 0);
      if (rowids.length <= pageSize) {
        insert.run(term, idf, rowids.length, maxImpact, null, null, null, joinBlob(parts, rowids), null, null);
      } else {
        const first = nextPage;
        const writeList = (listRowids: Int32Array, listParts: Float64Array): void => {
          for (let from = 0; from < listRowids.length; from += pageSize) {
            const to = Math.min(listRowids.length, from + pageSize);
            insertPage.run(nextPage, joinBlob(listParts.subarray(from, to), listRowids.subarray(from, to)));
            nextPage += 1;
          }
        };
        writeList(rowids, parts);
        // Only a paged list stores its impact order (an inline one is sorted when a search asks for it).
        const order = impactOrder(parts);
        const best = order.subarray(0, pageSize);
        writeList(
          Int32Array.from(best, (position) => rowids[position]),
          Float64Array.from(best, (position) => parts[position]),
        );
        const tiers: number[] = [];
        const tierBlocks: Blocks[] = [];
        for (const size of tierSizes(parts, order, tierShares)) {
          // The tier's positions in rowid order (a list's positions are its rowids' order).
          const positions = order.slice(0, size).sort();
          const tierRowids = Int32Array.from(positions, (position) => rowids[position]);
          const tierParts = Float64Array.from(positions, (position) => parts[position]);
          const blocks = blocksOf(idf, tierRowids, tierParts, blockSize);
          tiers.push(idf * parts[order[size]], size, nextPage, blocks.last.length);
          writeList(tierRowids, tierParts);
          tierBlocks.push(blocks);
        }
        const blocks = blocksOf(idf, rowids, parts, blockSize);
        insert.run(
          term,
          idf,
          rowids.length,
          maxImpact,
          first,
          pageBlocks,
          joinBlob(blocks.max, blocks.last),
          null,
          tiers.length > 0 ? Buffer.from(Float64Array.from(tiers).buffer) : null,
          tiers.length > 0
            ? joinBlob(concat(tierBlocks.map((tier) => tier.max)), concat(tierBlocks.map((tier) => tier.last)))
            : null,
        );
      }
    }
    postings.clear();
    term = undefined;
  };
  // better-sqlite3 cannot write while a statement iterates, so terms are read in batches of rows; a term
  // a batch stops inside is read to its end in one pass into `postings`, and written after it.
  const after = db.prepare(`SELECT term, doc, col FROM temp.${vocab} WHERE term > ? ${LIMIT_PARAMETER}`).raw();
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

/**
 * How many of the best postings each tier holds (see PostingsLayout.tierShares): distinct sizes, each
 * ending where the part changes, so the postings left out all have a smaller part than the tier's.
 */
export function tierSizes(parts: Float64Array, order: Int32Array, shares: readonly number[]): number[] {
  const sizes: number[] = [];
  for (const share of shares) {
    let size = Math.floor(parts.length * share);
    while (size > 0 && parts[order[size - 1]] === parts[order[size]]) size -= 1;
    if (size > 0 && size < parts.length && size !== sizes[sizes.length - 1]) sizes.push(size);
  }
  return sizes;
}

function concat<T extends Float64Array | Int32Array>(arrays: T[]): T {
  const length = arrays.reduce((sum, array) => sum + array.length, 0);
  const joined = (arrays[0] instanceof Float64Array ? new Float64Array(length) : new Int32Array(length)) as T;
  let offset = 0;
  for (const array of arrays) {
    joined.set(array, offset);
    offset += array.length;
  }
  return joined;
}

/**
 * Positions by descending part, equal parts in position (= rowid) order. A part depends only on a row's
 * weighted count and length, so a long list has few distinct parts: a counting sort over them, stable.
 */
export function impactOrder(parts: Float64Array): Int32Array {
  const distinct = Float64Array.from(parts).sort().reverse();
  const bucketOf = new Map<number, number>();
  for (const part of distinct) if (!bucketOf.has(part)) bucketOf.set(part, bucketOf.size);
  const starts = new Int32Array(bucketOf.size + 1);
  for (const part of parts) starts[bucketOf.get(part)! + 1] += 1;
  for (let bucket = 1; bucket < starts.length; bucket += 1) starts[bucket] += starts[bucket - 1];
  const order = new Int32Array(parts.length);
  parts.forEach((part, position) => (order[starts[bucketOf.get(part)!]++] = position));
  return order;
}

/** How many of a full batch's rows to use: all but those of its last (term, row) pair, which may go on past it. */
function completeRows(rows: [string, number, string][]): number {
  const [lastTerm, lastDoc] = rows[rows.length - 1];
  let end = rows.length;
  while (end > 0 && rows[end - 1][0] === lastTerm && rows[end - 1][1] === lastDoc) end -= 1;
  return end;
}

/** One term's postings as they are read: rowids in ascending order, each with its weighted count. */
class TermPostingsBuffer {
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
