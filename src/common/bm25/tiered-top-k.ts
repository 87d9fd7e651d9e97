import { PostingList, TermPostings } from './posting-list';
import { RowScorer, SLACK } from './row-scorer';

/**
 * One term's levels during a search: its tiers, smallest first, then its whole list (see
 * buildImpactPostings), each read through its own cursor, made when the search first needs it. A row
 * left out of level `l` has at most `below(l)` of this term's share; `below(-1)` is the term's best.
 */
class TermLevels {
  /** The level the search draws candidate rows from (-1: none, the term is only looked up), its cursor. */
  depth = -1;
  drawn: PostingList | undefined;
  /** The deepest level: the whole list. */
  readonly whole: number;
  private readonly bounds: Float64Array;
  private readonly cursors: (PostingList | undefined)[];

  constructor(readonly postings: TermPostings) {
    const tiers = postings.tiers;
    this.whole = tiers.length;
    this.bounds = Float64Array.from([postings.maxImpact, ...tiers.map((tier) => tier.below), 0]);
    this.cursors = new Array<PostingList | undefined>(tiers.length + 1);
  }

  /** The postings of a level (0 ≤ level ≤ whole). */
  list(level: number): TermPostings {
    return level < this.whole ? this.postings.tiers[level].postings : this.postings;
  }

  size(level: number): number {
    return level < 0 ? 0 : this.list(level).count;
  }

  below(level: number): number {
    return this.bounds[level + 1];
  }

  cursor(level: number): PostingList {
    return (this.cursors[level] ??= new PostingList(this.list(level)));
  }

  /** Draws from `level` from rowid `next` on. */
  drawFrom(level: number, next: number): void {
    this.depth = level;
    this.drawn = level >= 0 ? this.cursor(level) : undefined;
    this.drawn?.seek(next);
  }
}

/** A step of the plan: `term` one level deeper, after which rows outside every level drawn from score ≤ `outside`. */
interface Move {
  term: number;
  outside: number;
  /** Postings of every level drawn from, after the step. */
  cost: number;
}

/**
 * Which level of each term to draw candidate rows from, for a threshold. A row in none of the levels
 * drawn from scores at most the sum of the terms' `below` at their depths, so the levels are enough once
 * that sum cannot reach the threshold. The steps deepen, from no level at all, the term whose next level
 * lowers the sum most per posting added; the order does not depend on the threshold, which only decides
 * how many steps are needed, so as the threshold rises a search only ever draws from fewer postings.
 * With every term required (AND), one whole list (the shortest) is always enough: no row outside it
 * matches.
 */
class Plan {
  private readonly moves: Move[] = [];
  private readonly start: number;
  private readonly shortest: number;

  constructor(
    private readonly terms: readonly TermLevels[],
    private readonly every: boolean,
  ) {
    const depth = terms.map(() => -1);
    let outside = terms.reduce((sum, term) => sum + term.below(-1), 0);
    this.start = outside;
    let cost = 0;
    for (;;) {
      let best = -1;
      let bestRatio = -1;
      terms.forEach((term, i) => {
        if (depth[i] === term.whole) return;
        const gain = term.below(depth[i]) - term.below(depth[i] + 1);
        const ratio = gain / Math.max(1, term.size(depth[i] + 1) - term.size(depth[i]));
        if (ratio > bestRatio) [best, bestRatio] = [i, ratio];
      });
      if (best < 0) break;
      const term = terms[best];
      outside += term.below(depth[best] + 1) - term.below(depth[best]);
      cost += term.size(depth[best] + 1) - term.size(depth[best]);
      depth[best] += 1;
      this.moves.push({ term: best, outside, cost });
    }
    this.shortest = terms.reduce(
      (shortest, term, i) => (term.size(term.whole) < terms[shortest].size(terms[shortest].whole) ? i : shortest),
      0,
    );
  }

  /** The depth of each term for a threshold; every depth -1 when no row can reach it. */
  depths(threshold: number): number[] {
    const depths = this.terms.map(() => -1);
    if (this.start * SLACK < threshold) return depths;
    let steps = 0;
    while (steps < this.moves.length && this.moves[steps].outside * SLACK >= threshold) steps += 1;
    const cost = steps < this.moves.length ? this.moves[steps].cost : Infinity;
    const alone = this.terms[this.shortest];
    if (this.every && alone.size(alone.whole) <= cost) {
      depths[this.shortest] = alone.whole;
      return depths;
    }
    for (let i = 0; i <= Math.min(steps, this.moves.length - 1); i += 1) depths[this.moves[i].term] += 1;
    return depths;
  }
}

/**
 * The rows of a multi-term query that may enter the top k, from the terms' tiers (see
 * buildImpactPostings), each offered to `scorer` with its exact score; returns the rows looked at.
 *
 * MaxScore over tiers: candidate rows come, in rowid order, only from the levels the plan draws from
 * (see Plan), and a row's shares in the other terms are looked up in their tiers first (see lookUp),
 * so most rows are ruled out without reading the long lists. The plan is made again each time the
 * threshold rises.
 *
 * A first pass (the seeds) draws from every term's smallest tier, then the next ones while it has found
 * fewer than k rows and costs less than drawing from whole lists would, so that the exact pass starts
 * with a threshold near the final one; rows it offers are offered again by the exact pass, which the
 * heap ignores. When even that threshold leaves only whole lists to draw from (one with AND, every one
 * with OR), the exact pass is `untiered`, the block-max search with the same scorer.
 */
export function tieredTopK(
  lists: readonly TermPostings[],
  every: boolean,
  scorer: RowScorer,
  accept: ((rowid: number) => boolean) | undefined,
  untiered: () => number,
): number {
  if (every && lists.some((list) => list.count === 0)) return 0;
  // Lookups shortest list first: with AND a row missing from it is done with soonest.
  const order = lists.map((_, i) => i).sort((a, b) => lists[a].count - lists[b].count);
  let visited = 0;
  const terms = lists.map((list) => new TermLevels(list));
  const plan = new Plan(terms, every);
  const open = plan.depths(-Infinity);
  const openCost = terms.reduce((sum, term, i) => sum + term.size(open[i]), 0);
  // With AND, the seeds are only the rows every term's tier holds (an untiered term's whole list):
  // their shares are all in the tiers, so no long list is read, and they are the rows likeliest to rank.
  const tiers = Math.max(...terms.map((term) => term.whole));
  const tierOf = (term: TermLevels, level: number): number =>
    term.whole > 0 ? Math.min(level, term.whole - 1) : every ? term.whole : -1;
  // Seeds stop before they would cost as much as drawing from whole lists from the start.
  let seedBudget = openCost;
  for (let level = 0; level < tiers && scorer.threshold === -Infinity; level += 1) {
    const seed = lists.map((list) => new TermLevels(list));
    const depths = seed.map((term) => tierOf(term, level));
    seedBudget -= seed.reduce((sum, term, i) => sum + term.size(depths[i]), 0);
    if (seedBudget < 0) break;
    seed.forEach((term, i) => term.drawFrom(depths[i], 0));
    visited += drawRows(seed, order, every, scorer, accept, undefined, every);
  }
  const depths = plan.depths(scorer.threshold);
  if (depths.every((depth) => depth === -1)) return visited;
  // Only whole lists to draw from: the block-max searches do that with fewer lookups a row.
  if (depths.every((depth, i) => depth === -1 || depth === terms[i].whole)) return visited + untiered();
  depths.forEach((depth, i) => terms[i].drawFrom(depth, 0));
  const replan = (next: number): void => {
    plan.depths(scorer.threshold).forEach((depth, i) => {
      if (depth !== terms[i].depth) terms[i].drawFrom(depth, next);
    });
  };
  return visited + drawRows(terms, order, every, scorer, accept, replan);
}

/**
 * Draws candidate rows from each term's level at its depth, looks up the rest, offers the rows that may
 * enter; `intersect`: only the rows every drawn level holds (every term drawn).
 */
function drawRows(
  terms: readonly TermLevels[],
  order: readonly number[],
  every: boolean,
  scorer: RowScorer,
  accept?: (rowid: number) => boolean,
  replan?: (next: number) => void,
  intersect = false,
): number {
  const bound = new Float64Array(terms.length);
  const known = new Uint8Array(terms.length);
  let visited = 0;
  for (;;) {
    let rowid = Infinity;
    let furthest = -Infinity;
    for (let i = 0; i < terms.length; i += 1) {
      const drawn = terms[i].drawn;
      if (drawn !== undefined) {
        rowid = Math.min(rowid, drawn.current);
        furthest = Math.max(furthest, drawn.current);
      }
    }
    if (rowid === Infinity) return visited;
    if (intersect && furthest > rowid) {
      // Only rows every drawn level holds: leapfrog to the furthest cursor's row.
      for (const term of terms) term.drawn?.seek(furthest);
      continue;
    }
    visited += 1;
    scorer.start();
    // What the terms not yet known may still add.
    let outside = 0;
    for (let i = 0; i < terms.length; i += 1) {
      const term = terms[i];
      const drawn = term.drawn;
      if (drawn !== undefined && drawn.current === rowid) {
        scorer.add(i, drawn.part);
        drawn.next();
        known[i] = 1;
      } else {
        known[i] = 0;
        bound[i] = term.below(term.depth);
        outside += bound[i];
      }
    }
    if (accept && !accept(rowid)) continue;
    const next = lookUp(terms, order, every, scorer, rowid, known, bound, outside);
    if (next !== COMPLETE) {
      // Past rows no candidate can be (a whole list's next rowid, with AND).
      if (next > rowid + 1) for (const term of terms) term.drawn?.seek(next);
      continue;
    }
    if (scorer.cannotEnter(0)) continue;
    const threshold = scorer.threshold;
    scorer.offer(rowid);
    if (replan && scorer.threshold > threshold) replan(rowid + 1);
  }
}

/** What `lookUp` returns for a row whose score is complete (it may enter). */
const COMPLETE = -1;

/**
 * Completes a drawn row's score in the terms not yet `known`, `bound[i]` what each may add (`outside`
 * in all). Returns COMPLETE, or once the row cannot enter, the least rowid another candidate can have:
 * the next row, or with AND past a whole list that does not hold the row, that list's next rowid (every
 * row before it lacks the term).
 *
 * Tiers first, for every term, once a threshold can rule rows out: a row missing from one has at most
 * its `below`; the lookup is in the smallest tier whose absence rules the row out, else in the largest
 * tier, which bounds the share closest. Only then the whole lists, whose pages are the long ones, for
 * the terms whose share is still needed.
 */
function lookUp(
  terms: readonly TermLevels[],
  order: readonly number[],
  every: boolean,
  scorer: RowScorer,
  rowid: number,
  known: Uint8Array,
  bound: Float64Array,
  outside: number,
): number {
  for (let o = 0; o < order.length && scorer.threshold > -Infinity; o += 1) {
    const i = order[o];
    const term = terms[i];
    if (known[i] || term.depth >= term.whole - 1) continue;
    if (scorer.cannotEnter(outside)) return rowid + 1;
    const others = outside - bound[i];
    let level = term.depth + 1;
    while (level < term.whole - 1 && !scorer.cannotEnter(others + term.below(level))) level += 1;
    const cursor = term.cursor(level);
    const part = cursor.seek(rowid);
    if (cursor.current === rowid) {
      scorer.add(i, part);
      known[i] = 1;
      outside = others;
    } else {
      bound[i] = term.below(level);
      outside = others + bound[i];
    }
  }
  for (let o = 0; o < order.length; o += 1) {
    const i = order[o];
    if (known[i]) continue;
    if (scorer.cannotEnter(outside)) return rowid + 1;
    const term = terms[i];
    outside -= bound[i];
    if (term.depth === term.whole) {
      // Drawn from its whole list, which does not hold the row.
      if (every) return rowid + 1;
      continue;
    }
    const cursor = term.cursor(term.whole);
    const part = cursor.seek(rowid);
    if (cursor.current === rowid) scorer.add(i, part);
    else if (every) return cursor.current;
  }
  return COMPLETE;
}
