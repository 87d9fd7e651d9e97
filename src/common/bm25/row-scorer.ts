import type { PhraseSum } from './bm25';
import type { PostingList } from './posting-list';
import type { TopKHeap } from './top-k-heap';

/** A row's exact score differs from the plain sum of its shares in the last bits; compare with slack. */
export const SLACK = 1 + 1e-9;

/** One candidate row at a time: its parts per phrase, a running share sum for pruning, the exact score to keep. */
export class RowScorer {
  private readonly idfs: Float64Array;
  private readonly parts: Float64Array;
  private partial = 0;
  scored = 0;
  /** The heap's k-th score (-Infinity while it has room), kept here: it moves only when a row is offered. */
  threshold = -Infinity;

  constructor(
    lists: readonly { idf: number }[],
    private readonly heap: TopKHeap,
    private readonly sum: PhraseSum,
  ) {
    this.idfs = Float64Array.from(lists, (list) => list.idf);
    this.parts = new Float64Array(lists.length);
  }

  start(): void {
    // A loop, not fill(): a few phrases, once per candidate row, where the builtin's call costs more.
    for (let i = 0; i < this.parts.length; i += 1) this.parts[i] = 0;
    this.partial = 0;
  }

  add(phrase: number, part: number): void {
    this.parts[phrase] = part;
    this.partial += this.idfs[phrase] * part;
  }

  /** Even a row with `bound` in all, not just this row's share so far, stays clearly below the k-th score. */
  blockCannotEnter(bound: number): boolean {
    return bound * SLACK < this.threshold;
  }

  /** Even with `more` added, the row stays clearly below the k-th score. */
  cannotEnter(more: number): boolean {
    return (this.partial + more) * SLACK < this.threshold;
  }

  /** `cannotEnter(more)` for the row under `list`'s cursor, from that list's share alone (no row started). */
  weak(list: PostingList, more: number): boolean {
    return (list.idf * list.part + more) * SLACK < this.threshold;
  }

  /** Moves `list` past the rows `weak` rules out, up to rowid `last` or its page's end; returns how many. */
  skipWeak(list: PostingList, more: number, last: number): number {
    return list.skipWeak(list.idf, more, SLACK, this.threshold, last);
  }

  /** The exact bm25() score, computed only for rows that may enter (it can cost microseconds). */
  offer(rowid: number): void {
    this.scored += 1;
    this.heap.offer(rowid, this.sum(this.idfs, this.parts));
    this.threshold = this.heap.threshold;
  }
}
