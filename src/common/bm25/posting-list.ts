/**
 * Postings per page when an index is built: the unit read from disk. A read costs a fixed few
 * microseconds (a statement, a B-tree lookup) plus a copy; at 4,096 postings (48 KB) the fixed part is
 * paid a quarter as often as at 1,024 by the long lists a search walks, for a copy a third dearer.
 */
export const PAGE_SIZE = 4096;
/** Postings per block: the unit whose best share bounds every row in it (block-max pruning). */
export const BLOCK_SIZE = 64;

/** One page of a term's postings: rowids with their parts, in rowid order or in impact order. */
export interface PostingPage {
  readonly rowids: Int32Array;
  readonly parts: Float64Array;
}

const EMPTY_PAGE: PostingPage = { rowids: new Int32Array(0), parts: new Float64Array(0) };

/** Each block's last rowid and best share (`idf * part`), blocks of `size` postings in rowid order. */
export interface Blocks {
  last: Int32Array;
  max: Float64Array;
}

export function blocksOf(idf: number, rowids: Int32Array, parts: Float64Array, size: number): Blocks {
  const count = Math.ceil(rowids.length / size);
  const blocks: Blocks = { last: new Int32Array(count), max: new Float64Array(count) };
  for (let block = 0; block < count; block += 1) {
    const end = Math.min(rowids.length, (block + 1) * size);
    let best = 0;
    for (let i = block * size; i < end; i += 1) best = Math.max(best, idf * parts[i]);
    blocks.last[block] = rowids[end - 1];
    blocks.max[block] = best;
  }
  return blocks;
}

/**
 * A term's best postings, in rowid order like the list they come from: every posting whose share is
 * above `below`, the best share of the others (see buildImpactPostings).
 */
export interface Tier {
  readonly postings: TermPostings;
  readonly below: number;
}

/**
 * One term's postings as an index stores them (see buildImpactPostings), immutable and shared by every
 * search on a thread through the PostingCache: its idf, how many rows hold it, its best share, and per
 * block of the rowid order that block's last rowid and best share; `pageBlocks` blocks make a page.
 * Pages are read when a search first needs them: `page(i)` for i < pages is the i-th page in rowid
 * order, `page(pages)` the list's best postings in impact order (descending share, then ascending
 * rowid): a page's worth, or all of them when the list fits in one page. A long list also has `tiers`,
 * smallest first: its best postings, each tier a list of its own that holds the one before it.
 */
export class TermPostings {
  readonly pages: number;

  constructor(
    readonly idf: number,
    readonly count: number,
    readonly maxImpact: number,
    readonly blocks: Blocks,
    readonly pageBlocks: number,
    private readonly page: (index: number) => PostingPage,
    readonly tiers: readonly Tier[] = [],
  ) {
    this.pages = Math.ceil(blocks.last.length / pageBlocks);
  }

  /** Blocks of the list and of its tiers. */
  get blockCount(): number {
    return this.tiers.reduce((count, tier) => count + tier.postings.blocks.last.length, this.blocks.last.length);
  }

  rowidPage(index: number): PostingPage {
    return index < this.pages ? this.page(index) : EMPTY_PAGE;
  }

  /** The best postings, in impact order; `ranked().rowids.length === count` when they are all of them. */
  ranked(): PostingPage {
    return this.pages > 0 ? this.page(this.pages) : EMPTY_PAGE;
  }

  static readonly EMPTY = new TermPostings(
    0,
    0,
    0,
    { last: new Int32Array(0), max: new Float64Array(0) },
    1,
    () => EMPTY_PAGE,
  );
}

/**
 * A cursor over one term's postings in rowid order, reading a page only when it reaches it; `seek`
 * jumps over whole blocks by their last rowids, so pages it skips are never read.
 */
export class PostingList {
  private page = 0;
  private rowids: Int32Array;
  private parts: Float64Array;
  private offset = 0;
  /** The block `shallow` last landed on; like the cursor, it only moves forward. */
  private block = 0;

  constructor(readonly postings: TermPostings) {
    ({ rowids: this.rowids, parts: this.parts } = postings.rowidPage(0));
  }

  get idf(): number {
    return this.postings.idf;
  }

  get maxImpact(): number {
    return this.postings.maxImpact;
  }

  get length(): number {
    return this.postings.count;
  }

  /** The rowid under the cursor, or Infinity past the end. */
  get current(): number {
    return this.offset < this.rowids.length ? this.rowids[this.offset] : Infinity;
  }

  /** The part of the posting under the cursor (only when `current` is finite). */
  get part(): number {
    return this.parts[this.offset];
  }

  next(): void {
    this.moveTo(this.offset + 1);
  }

  /**
   * Moves past the postings, up to rowid `last` and at most to the end of the page, whose share added to
   * `more` stays clearly below `threshold`: `(idf * part + more) * slack < threshold`, the test a row
   * scorer makes of one row at a time, made here in one loop over the page's arrays. Returns how many.
   */
  skipWeak(idf: number, more: number, slack: number, threshold: number, last: number): number {
    const { rowids, parts } = this;
    const from = this.offset;
    let offset = from;
    while (offset < rowids.length && rowids[offset] <= last && (idf * parts[offset] + more) * slack < threshold)
      offset += 1;
    this.moveTo(offset);
    return offset - from;
  }

  /** Moves to the first posting with rowid ≥ target; returns its part if the rowid is the target, else 0. */
  seek(target: number): number {
    const rowids = this.rowids;
    const length = rowids.length;
    let offset = this.offset;
    // Past the end only once the whole list is (moveTo loads the next page at a page's end).
    if (offset >= length) return 0;
    if (rowids[offset] < target) {
      if (rowids[length - 1] < target) return this.seekPage(target);
      offset = gallop(rowids, target, offset + 1);
      this.offset = offset;
    }
    return rowids[offset] === target ? this.parts[offset] : 0;
  }

  /** `seek` to a target past the loaded page: the page of the first block that can hold it, read now. */
  private seekPage(target: number): number {
    const postings = this.postings;
    const block = gallop(postings.blocks.last, target, (this.page + 1) * postings.pageBlocks);
    if (block === postings.blocks.last.length) {
      this.offset = this.rowids.length;
      return 0;
    }
    this.load(Math.floor(block / postings.pageBlocks));
    this.offset = gallop(this.rowids, target, 0);
    return this.partAt(target);
  }

  /**
   * Without moving the cursor or reading a page: the best share any row from `target` up to `shallowEnd`
   * can have in this list (0 when no posting is ≥ target), the maximum of the block that would hold it.
   */
  shallow(target: number): number {
    const { last, max } = this.postings.blocks;
    let block = Math.max(this.block, this.page * this.postings.pageBlocks);
    while (block < last.length && last[block] < target) block += 1;
    this.block = block;
    return block < last.length ? max[block] : 0;
  }

  /** The last rowid `shallow`'s bound covers (Infinity past the end). */
  get shallowEnd(): number {
    const { last } = this.postings.blocks;
    return this.block < last.length ? last[this.block] : Infinity;
  }

  /** Puts the cursor at `offset` of this page, on the next page's first posting when that is the page's end. */
  private moveTo(offset: number): void {
    this.offset = offset;
    if (offset === this.rowids.length && this.page + 1 < this.postings.pages) this.load(this.page + 1);
  }

  private load(page: number): void {
    this.page = page;
    ({ rowids: this.rowids, parts: this.parts } = this.postings.rowidPage(page));
    this.offset = 0;
  }

  private partAt(target: number): number {
    return this.offset < this.rowids.length && this.rowids[this.offset] === target ? this.parts[this.offset] : 0;
  }
}

/** The first position in [from, to) whose value is ≥ target (`to` if none). */
function firstAtLeast(values: Int32Array, target: number, from: number, to = values.length): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle] < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The same, galloping from `from` first: cheap when the answer is near it, as a cursor's next target is. */
function gallop(values: Int32Array, target: number, from: number): number {
  if (from >= values.length || values[from] >= target) return from;
  let low = from;
  let step = 1;
  while (low + step < values.length && values[low + step] < target) {
    low += step;
    step *= 2;
  }
  return firstAtLeast(values, target, low + 1, Math.min(values.length, low + step));
}

/**
 * A stored page or skip list: `count` Float64 values, then `count` Int32 values (so both are aligned
 * when the blob is); one aligned copy when SQLite's buffer is not.
 */
export function splitBlob(blob: Buffer): { floats: Float64Array; ints: Int32Array } {
  const count = blob.byteLength / 12;
  const aligned = blob.byteOffset % 8 === 0;
  const buffer = aligned ? blob.buffer : new Uint8Array(blob).buffer;
  const offset = aligned ? blob.byteOffset : 0;
  return { floats: new Float64Array(buffer, offset, count), ints: new Int32Array(buffer, offset + 8 * count, count) };
}

/** The blob `splitBlob` reads back: the floats, then the ints. */
export function joinBlob(floats: Float64Array, ints: Int32Array): Buffer {
  const blob = Buffer.allocUnsafe(floats.byteLength + ints.byteLength);
  Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).copy(blob, 0);
  Buffer.from(ints.buffer, ints.byteOffset, ints.byteLength).copy(blob, floats.byteLength);
  return blob;
}
