import type { ScoredRow } from './impact-top-k';

/**
 * The k best rows seen so far: a min-heap whose root is the worst kept row (lowest score, then highest
 * rowid, the order `ORDER BY score DESC, rowid` would drop first). A row offered again is kept once.
 */
export class TopKHeap {
  private readonly rows: ScoredRow[] = [];
  private readonly kept = new Set<number>();

  constructor(private readonly k: number) {}

  get full(): boolean {
    return this.rows.length >= this.k;
  }

  /** The score a row must beat to enter, or -Infinity while the heap has room. */
  get threshold(): number {
    return this.full ? this.rows[0].score : -Infinity;
  }

  offer(rowid: number, score: number): void {
    if (this.k <= 0) return;
    if (!this.full) {
      if (this.kept.has(rowid)) return;
      this.kept.add(rowid);
      this.rows.push({ rowid, score });
      this.up(this.rows.length - 1);
    } else if (worse(this.rows[0], { rowid, score }) && !this.kept.has(rowid)) {
      this.kept.delete(this.rows[0].rowid);
      this.kept.add(rowid);
      this.rows[0] = { rowid, score };
      this.down(0);
    }
  }

  /** Best first; equal scores by rowid. */
  sorted(): ScoredRow[] {
    return [...this.rows].sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  }

  private up(index: number): void {
    const rows = this.rows;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!worse(rows[index], rows[parent])) return;
      [rows[index], rows[parent]] = [rows[parent], rows[index]];
      index = parent;
    }
  }

  private down(index: number): void {
    const rows = this.rows;
    for (;;) {
      let worst = index;
      for (const child of [2 * index + 1, 2 * index + 2]) {
        if (child < rows.length && worse(rows[child], rows[worst])) worst = child;
      }
      if (worst === index) return;
      [rows[index], rows[worst]] = [rows[worst], rows[index]];
      index = worst;
    }
  }
}

const worse = (a: ScoredRow, b: ScoredRow): boolean => a.score < b.score || (a.score === b.score && a.rowid > b.rowid);
