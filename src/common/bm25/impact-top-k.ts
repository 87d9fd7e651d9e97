import type Database from 'better-sqlite3';
import { PhraseSum } from './bm25';
import { RANKED_PREFIX } from './impact-postings';
import { PostingCache } from './posting-cache';
import { float64s, int32s, PostingList, Postings } from './posting-list';
import { TopKHeap } from './top-k-heap';

export interface ScoredRow {
  rowid: number;
  /** −bm25(): higher is better. */
  score: number;
}

export interface TopKRequest {
  /** One FTS5 token per query phrase, in the query's order (the order `bm25()` sums in). */
  terms: readonly string[];
  /** Every term must occur (FTS5 AND) or any (OR). */
  every: boolean;
  k: number;
  /** Rows outside the caller's scope (e.g. other knowledge bases) are skipped, not counted. */
  accept?: (rowid: number) => boolean;
}

export interface TopKAnswer {
  hits: ScoredRow[];
  /** Candidate rows looked at to find them (FTS5 scores every matching row). */
  examined: number;
  /** Rows whose full bm25 score was computed (the others were ruled out by bounds or a missing word). */
  scored: number;
}

// A row's exact score differs from the plain sum of its shares in the last bits; compare with slack.
const SLACK = 1 + 1e-9;

/**
 * The BM25 top k of a bag of single-token phrases, from impact postings (see buildImpactPostings), equal
 * to `ORDER BY bm25(…), rowid LIMIT k` over the same FTS5 table and weights. A one-term query reads the
 * first k of its impact order; otherwise MaxScore (OR) or a leapfrog intersection (AND), both with
 * block-max bounds: a block of postings whose best share, added to the other lists' best shares over the
 * same rowids, cannot lift a row over the current k-th score is skipped without looking at its rows.
 */
export class ImpactTopK {
  private readonly list: Database.Statement;
  private readonly prefix: Database.Statement;
  private readonly cache = new PostingCache();

  constructor(
    db: Database.Database,
    postings: string,
    private readonly sum: PhraseSum,
  ) {
    this.list = db.prepare(`SELECT idf, rowids, parts, max_impact FROM ${postings} WHERE term = ?`).raw();
    this.prefix = db
      .prepare(`SELECT idf, substr(ranked, 1, ?), length(rowids) / 4 FROM ${postings} WHERE term = ?`)
      .raw();
  }

  search(request: TopKRequest): TopKAnswer {
    if (request.k <= 0 || request.terms.length === 0) return { hits: [], examined: 0, scored: 0 };
    if (request.terms.length === 1) {
      const answer = this.single(request.terms[0], request.k, request.accept);
      if (answer) return answer;
    }
    const lists = request.terms.map((term) => this.load(term));
    const heap = new TopKHeap(request.k);
    const scorer = new RowScorer(lists, heap, this.sum);
    const examined = request.every
      ? this.intersection(lists, scorer, request.accept)
      : this.union(lists, scorer, request.accept);
    return { hits: heap.sorted(), examined, scored: scorer.scored };
  }

  /** Whether any row holds every term (`every`) or any of them: the AND-or-OR choice without ranking. */
  matches(terms: readonly string[], every: boolean): boolean {
    const lists = terms.map((term) => this.load(term));
    if (!every || lists.length === 0) return lists.some((list) => list.length > 0);
    // Leapfrog: each list in turn jumps to the candidate; a list past it proposes the next candidate.
    let rowid = lists[0].current;
    let agreed = 1;
    for (let i = 1 % lists.length; rowid !== Infinity && agreed < lists.length; i = (i + 1) % lists.length) {
      lists[i].seek(rowid);
      if (lists[i].current === rowid) agreed += 1;
      else {
        rowid = lists[i].current;
        agreed = 1;
      }
    }
    return rowid !== Infinity;
  }

  /**
   * One phrase: a row's score is its share (`idf * part`), so the impact order is the answer, when the
   * stored prefix of that order holds k accepted rows or the whole list; undefined sends it to MaxScore.
   */
  private single(term: string, k: number, accept?: (rowid: number) => boolean): TopKAnswer | undefined {
    if (k > RANKED_PREFIX) return undefined;
    const row = this.prefix.get(16 * (accept ? RANKED_PREFIX : k), term) as [number, Buffer, number] | undefined;
    if (!row) return { hits: [], examined: 0, scored: 0 };
    const pairs = float64s(row[1]);
    const hits: ScoredRow[] = [];
    let index = 0;
    for (; index < pairs.length && hits.length < k; index += 2) {
      if (!accept || accept(pairs[index])) hits.push({ rowid: pairs[index], score: row[0] * pairs[index + 1] });
    }
    const whole = pairs.length / 2 >= row[2];
    return hits.length === k || whole ? { hits, examined: index / 2, scored: index / 2 } : undefined;
  }

  private load(term: string): PostingList {
    return new PostingList(
      this.cache.list(term, () => {
        const row = this.list.get(term) as [number, Buffer, Buffer, number] | undefined;
        return row ? new Postings(row[0], int32s(row[1]), float64s(row[2]), row[3]) : Postings.EMPTY;
      }),
    );
  }

  /** MaxScore over OR: lists by ascending maximum; the low ones become probe-only as the threshold rises. */
  private union(lists: PostingList[], scorer: RowScorer, accept?: (rowid: number) => boolean): number {
    const order = lists.map((_, i) => i).sort((a, b) => lists[a].maxImpact - lists[b].maxImpact);
    const bounds: number[] = [];
    order.forEach((list, i) => bounds.push((bounds[i - 1] ?? 0) + lists[list].maxImpact));
    let essential = 0;
    for (let visited = 0; ; visited += 1) {
      let rowid = Infinity;
      for (let i = essential; i < order.length; i += 1) rowid = Math.min(rowid, lists[order[i]].current);
      if (rowid === Infinity) return visited;
      scorer.start();
      for (let i = essential; i < order.length; i += 1) {
        const list = lists[order[i]];
        if (list.current !== rowid) continue;
        scorer.add(order[i], list.parts[list.position]);
        list.position += 1;
      }
      if (accept && !accept(rowid)) continue;
      let pruned = false;
      for (let i = essential - 1; i >= 0 && !pruned; i -= 1) {
        pruned = scorer.cannotEnter(blockBound(lists, order, i, rowid));
        if (!pruned) scorer.add(order[i], lists[order[i]].seek(rowid));
      }
      if (pruned || scorer.cannotEnter(0)) continue;
      scorer.offer(rowid);
      while (essential < order.length && bounds[essential] * SLACK < scorer.threshold) essential += 1;
    }
  }

  /**
   * AND: leapfrog in rowid order from the shortest list, each list jumping (galloping) to the next rowid
   * every other list may hold. Before a row is looked up, its bound (its share plus the others' block
   * maxima at that rowid) must reach the k-th score; a driver block whose maximum plus those cannot is
   * skipped to where the first of the blocks ends.
   */
  private intersection(lists: PostingList[], scorer: RowScorer, accept?: (rowid: number) => boolean): number {
    const order = lists.map((_, i) => i).sort((a, b) => lists[a].length - lists[b].length);
    const driver = lists[order[0]];
    const others = order.slice(1).map((i) => lists[i]);
    let visited = 0;
    let rowid = driver.current;
    while (rowid !== Infinity) {
      let othersBound = 0;
      let end = Infinity;
      for (const list of others) {
        othersBound += list.shallow(rowid);
        end = Math.min(end, list.shallowEnd);
      }
      if (scorer.blockCannotEnter(driver.shallow(rowid) + othersBound)) {
        driver.seek(Math.min(end, driver.shallowEnd) + 1);
        rowid = driver.current;
        continue;
      }
      visited += 1;
      rowid = this.intersect(rowid, driver, order, lists, scorer, othersBound, accept);
    }
    return visited;
  }

  /** One driver row: scored if every list holds it and it may enter; returns the next rowid to try. */
  private intersect(
    rowid: number,
    driver: PostingList,
    order: number[],
    lists: PostingList[],
    scorer: RowScorer,
    othersBound: number,
    accept?: (rowid: number) => boolean,
  ): number {
    scorer.start();
    scorer.add(order[0], driver.parts[driver.position]);
    if (scorer.cannotEnter(othersBound) || (accept && !accept(rowid))) {
      driver.position += 1;
      return driver.current;
    }
    for (let o = 1; o < order.length; o += 1) {
      const list = lists[order[o]];
      scorer.add(order[o], list.seek(rowid));
      if (list.current !== rowid) {
        driver.seek(list.current);
        return driver.current;
      }
    }
    scorer.offer(rowid);
    driver.position += 1;
    return driver.current;
  }
}

/** The most the lists `order[0..upTo]` can add to a row at `rowid`: the sum of their block maxima there. */
function blockBound(lists: PostingList[], order: number[], upTo: number, rowid: number): number {
  let bound = 0;
  for (let i = 0; i <= upTo; i += 1) bound += lists[order[i]].shallow(rowid);
  return bound;
}

/** One candidate row at a time: its parts per phrase, a running share sum for pruning, the exact score to keep. */
class RowScorer {
  private readonly idfs: Float64Array;
  private readonly parts: Float64Array;
  private partial = 0;
  scored = 0;

  constructor(
    lists: PostingList[],
    private readonly heap: TopKHeap,
    private readonly sum: PhraseSum,
  ) {
    this.idfs = Float64Array.from(lists, (list) => list.idf);
    this.parts = new Float64Array(lists.length);
  }

  start(): void {
    this.parts.fill(0);
    this.partial = 0;
  }

  add(phrase: number, part: number): void {
    this.parts[phrase] = part;
    this.partial += this.idfs[phrase] * part;
  }

  /** Even a row with `bound` in all, not just this row's share so far, stays clearly below the k-th score. */
  blockCannotEnter(bound: number): boolean {
    return bound * SLACK < this.heap.threshold;
  }

  /** Even with `more` added, the row stays clearly below the k-th score. */
  cannotEnter(more: number): boolean {
    return (this.partial + more) * SLACK < this.heap.threshold;
  }

  /** The exact bm25() score, computed only for rows that may enter (it can cost microseconds). */
  offer(rowid: number): void {
    this.scored += 1;
    this.heap.offer(rowid, this.sum(this.idfs, this.parts));
  }

  get threshold(): number {
    return this.heap.threshold;
  }
}
