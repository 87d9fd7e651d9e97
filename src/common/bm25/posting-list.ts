/** One term's postings in rowid order, with a cursor; `seek` gallops forward, so skipped postings cost nothing. */
export class PostingList {
  position = 0;

  constructor(
    readonly idf: number,
    readonly rowids: Int32Array,
    readonly parts: Float64Array,
    readonly maxImpact: number,
  ) {}

  static empty(): PostingList {
    return new PostingList(0, new Int32Array(0), new Float64Array(0), 0);
  }

  get length(): number {
    return this.rowids.length;
  }

  /** The rowid under the cursor, or Infinity past the end. */
  get current(): number {
    return this.position < this.rowids.length ? this.rowids[this.position] : Infinity;
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
