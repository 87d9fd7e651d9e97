/** Postings per block: the unit whose best share bounds every row in it (block-max pruning). */
export const BLOCK_SIZE = 64;
const BLOCK_SHIFT = 6;

/**
 * One term's postings in rowid order, immutable (shared by every search on a thread through the
 * PostingCache), with each block's last rowid and best share, computed once when the list is read.
 */
export class Postings {
  /** Last rowid of each block of BLOCK_SIZE postings. */
  readonly blockLast: Int32Array;
  /** Best share (`idf * part`) in each block. */
  readonly blockMax: Float64Array;

  constructor(
    readonly idf: number,
    readonly rowids: Int32Array,
    readonly parts: Float64Array,
    readonly maxImpact: number,
  ) {
    const blocks = (rowids.length + BLOCK_SIZE - 1) >> BLOCK_SHIFT;
    this.blockLast = new Int32Array(blocks);
    this.blockMax = new Float64Array(blocks);
    for (let block = 0; block < blocks; block += 1) {
      const end = Math.min(rowids.length, (block + 1) << BLOCK_SHIFT);
      let best = 0;
      for (let i = block << BLOCK_SHIFT; i < end; i += 1) best = Math.max(best, idf * parts[i]);
      this.blockLast[block] = rowids[end - 1];
      this.blockMax[block] = best;
    }
  }

  static readonly EMPTY = new Postings(0, new Int32Array(0), new Float64Array(0), 0);
}

/** A cursor over one term's postings; `seek` gallops forward, so skipped postings cost nothing. */
export class PostingList {
  position = 0;
  /** The block `shallow` last landed on; like `position`, it only moves forward. */
  private block = 0;
  readonly idf: number;
  readonly rowids: Int32Array;
  readonly parts: Float64Array;
  readonly maxImpact: number;

  constructor(private readonly postings: Postings) {
    this.idf = postings.idf;
    this.rowids = postings.rowids;
    this.parts = postings.parts;
    this.maxImpact = postings.maxImpact;
  }

  get length(): number {
    return this.rowids.length;
  }

  /** The rowid under the cursor, or Infinity past the end. */
  get current(): number {
    return this.position < this.rowids.length ? this.rowids[this.position] : Infinity;
  }

  /**
   * Without moving the cursor: the best share any row from `target` up to `shallowEnd` can have in this
   * list (0 when no posting is ≥ target), i.e. the maximum of the block that holds the first posting ≥ target.
   */
  shallow(target: number): number {
    const last = this.postings.blockLast;
    let block = Math.max(this.block, this.position >> BLOCK_SHIFT);
    while (block < last.length && last[block] < target) block += 1;
    this.block = block;
    return block < last.length ? this.postings.blockMax[block] : 0;
  }

  /** The last rowid `shallow`'s bound covers (Infinity past the end). */
  get shallowEnd(): number {
    return this.block < this.postings.blockLast.length ? this.postings.blockLast[this.block] : Infinity;
  }

  /** Moves to the first posting with rowid ≥ target; returns its part if the rowid is the target, else 0. */
  seek(target: number): number {
    const rowids = this.rowids;
    let low = this.position;
    if (low >= rowids.length || rowids[low] >= target) return this.partAt(target);
    let step = 1;
    let high = low + 1;
    while (high < rowids.length && rowids[high] < target) {
      low = high;
      step *= 2;
      high = low + step;
    }
    high = Math.min(high, rowids.length);
    while (low + 1 < high) {
      const middle = (low + high) >>> 1;
      if (rowids[middle] < target) low = middle;
      else high = middle;
    }
    this.position = high;
    return this.partAt(target);
  }

  private partAt(target: number): number {
    return this.position < this.rowids.length && this.rowids[this.position] === target ? this.parts[this.position] : 0;
  }
}

/** A typed array over a blob SQLite returned, copied when the blob's offset is not aligned for the type. */
export function int32s(blob: Buffer): Int32Array {
  return blob.byteOffset % 4 === 0
    ? new Int32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4)
    : new Int32Array(new Uint8Array(blob).buffer);
}

export function float64s(blob: Buffer): Float64Array {
  return blob.byteOffset % 8 === 0
    ? new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength / 8)
    : new Float64Array(new Uint8Array(blob).buffer);
}
