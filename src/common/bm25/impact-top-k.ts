import type Database from 'better-sqlite3';
import type { PhraseSum } from './bm25';
import { impactOrder } from './impact-postings';
import { PostingCache } from './posting-cache';
import { BLOCK_SIZE, Blocks, blocksOf, PostingList, PostingPage, splitBlob, TermPostings, Tier } from './posting-list';
import { RowScorer, SLACK } from './row-scorer';
import { tieredTopK } from './tiered-top-k';
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

/**
 * The BM25 top k of a bag of single-token phrases, from impact postings (see buildImpactPostings), equal
 * to `ORDER BY bm25(…), rowid LIMIT k` over the same FTS5 table and weights, reading only the pages of
 * postings the search reaches. A one-term query reads the first k of its impact order (its best page);
 * otherwise MaxScore (OR) or a leapfrog intersection (AND) in rowid order, both with block-max bounds: a
 * block of postings whose best share, added to the other lists' best shares over the same rowids,
 * cannot lift a row over the current k-th score is skipped without looking at its rows, and a page none
 * of whose rows is looked at is never read. When a list is long enough to have tiers, MaxScore over
 * the tiers instead (see tieredTopK), for AND and OR alike.
 */
export class ImpactTopK {
  private readonly term: Database.Statement;
  private readonly page: Database.Statement;
  private readonly cache = new PostingCache();

  constructor(
    db: Database.Database,
    postings: string,
    private readonly sum: PhraseSum,
  ) {
    this.term = db
      .prepare(
        'SELECT idf, count, max_impact, first_page, page_blocks, skips, inline, tiers, tier_skips ' +
          `FROM ${postings} WHERE term = ?`,
      )
      .raw();
    this.page = db.prepare(`SELECT data FROM ${postings}_pages WHERE id = ?`).pluck();
  }

  search(request: TopKRequest): TopKAnswer {
    if (request.k <= 0 || request.terms.length === 0) return { hits: [], examined: 0, scored: 0 };
    const lists = request.terms.map((term) => this.load(term));
    if (lists.length === 1) {
      const answer = single(lists[0], request.k, request.accept);
      if (answer) return answer;
    }
    const heap = new TopKHeap(request.k);
    const scorer = new RowScorer(lists, heap, this.sum);
    const untiered = (): number => {
      const cursors = lists.map((list) => new PostingList(list));
      return request.every ? intersection(cursors, scorer, request.accept) : union(cursors, scorer, request.accept);
    };
    const examined = lists.some((list) => list.tiers.length > 0)
      ? tieredTopK(lists, request.every, scorer, request.accept, untiered)
      : untiered();
    return { hits: heap.sorted(), examined, scored: scorer.scored };
  }

  /** Whether any row holds every term (`every`) or any of them: the AND-or-OR choice without ranking. */
  matches(terms: readonly string[], every: boolean): boolean {
    const postings = terms.map((term) => this.load(term));
    if (!every || postings.length === 0) return postings.some((list) => list.count > 0);
    const lists = postings.map((list) => new PostingList(list));
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

  /** A term's postings: its row (cached), its pages read through the cache when a search reaches them. */
  private load(term: string): TermPostings {
    return this.cache.get(
      term,
      () => this.read(term),
      // Its blocks and its tiers', 12 bytes each; an inline list (one page) holds its postings in both orders.
      (postings) => 64 + 2 * term.length + 12 * postings.blockCount + (postings.pages === 1 ? 24 * postings.count : 0),
    );
  }

  private read(term: string): TermPostings {
    const row = this.term.get(term) as TermRow | undefined;
    if (!row) return TermPostings.EMPTY;
    const [idf, count, maxImpact, firstPage, pageBlocks, skips, inline, tierRows, tierSkips] = row;
    if (inline) {
      // One page, its blocks computed here (the term row keeps only the postings).
      const { floats: parts, ints: rowids } = splitBlob(inline);
      const byRowid: PostingPage = { rowids, parts };
      let byImpact: PostingPage | undefined;
      const blocks = blocksOf(idf, rowids, parts, BLOCK_SIZE);
      return new TermPostings(idf, count, maxImpact, blocks, blocks.last.length, (index) =>
        index === 0 ? byRowid : (byImpact ??= impactPage(byRowid)),
      );
    }
    const { floats: max, ints: last } = splitBlob(skips!);
    const blocksPerPage = pageBlocks!;
    const list = (first: number, postings: number, blocks: Blocks, tiers?: Tier[]): TermPostings =>
      new TermPostings(idf, postings, maxImpact, blocks, blocksPerPage, (index) => this.readPage(first + index), tiers);
    return list(firstPage!, count, { last, max }, tierRows ? this.tiers(tierRows, tierSkips!, list) : []);
  }

  /** A paged list's tiers (see buildImpactPostings): per tier its bound, size, first page and block count. */
  private tiers(
    rows: Buffer,
    skips: Buffer,
    list: (first: number, postings: number, blocks: Blocks) => TermPostings,
  ): Tier[] {
    const fields = new Float64Array(new Uint8Array(rows).buffer);
    const { floats: max, ints: last } = splitBlob(skips);
    const tiers: Tier[] = [];
    let block = 0;
    for (let i = 0; i + 3 < fields.length; i += 4) {
      const [below, postings, first, blocks] = [fields[i], fields[i + 1], fields[i + 2], fields[i + 3]];
      const end = block + blocks;
      tiers.push({
        below,
        postings: list(first, postings, { last: last.subarray(block, end), max: max.subarray(block, end) }),
      });
      block = end;
    }
    return tiers;
  }

  private readPage(id: number): PostingPage {
    return this.cache.get(
      id,
      () => {
        const { floats, ints } = splitBlob(this.page.get(id) as Buffer);
        return { rowids: ints, parts: floats };
      },
      (page) => 16 + 12 * page.rowids.length,
    );
  }
}

/** A term's row: idf, count, max_impact, first_page, page_blocks, skips, inline, tiers, tier_skips. */
type TermRow = [
  number,
  number,
  number,
  number | null,
  number | null,
  Buffer | null,
  Buffer | null,
  Buffer | null,
  Buffer | null,
];

/** An inline list's impact order, made from its rowid order when a search first asks for it. */
function impactPage(page: PostingPage): PostingPage {
  const order = impactOrder(page.parts);
  return {
    rowids: Int32Array.from(order, (position) => page.rowids[position]),
    parts: Float64Array.from(order, (position) => page.parts[position]),
  };
}

/**
 * One phrase: a row's score is its share (`idf * part`), so the impact order is the answer, when the
 * stored best page holds k accepted rows or the whole list; undefined sends it to MaxScore.
 */
function single(list: TermPostings, k: number, accept?: (rowid: number) => boolean): TopKAnswer | undefined {
  const { rowids, parts } = list.ranked();
  const hits: ScoredRow[] = [];
  let index = 0;
  for (; index < rowids.length && hits.length < k; index += 1) {
    if (!accept || accept(rowids[index])) hits.push({ rowid: rowids[index], score: list.idf * parts[index] });
  }
  return hits.length === k || rowids.length === list.count ? { hits, examined: index, scored: index } : undefined;
}

/**
 * AND: leapfrog in rowid order from the shortest list, each list jumping (galloping) to the next rowid
 * every other list may hold. Before a row is looked up, its bound (its share plus the others' block
 * maxima at that rowid) must reach the k-th score; a driver block whose maximum plus those cannot is
 * skipped to where the first of the blocks ends.
 */
function intersection(lists: PostingList[], scorer: RowScorer, accept?: (rowid: number) => boolean): number {
  const order = lists.map((_, i) => i).sort((a, b) => lists[a].length - lists[b].length);
  const driver = lists[order[0]];
  let visited = 0;
  let rowid = driver.current;
  // Up to `end`, every list's block is the one holding `rowid`, so the bounds stay until a row passes it.
  let end = -Infinity;
  let driverBound = 0;
  // rest[o]: the block maxima of the lists after order[o], what a row holding order[0..o] may still gain;
  // rest[0] is what every other list may add to a driver row.
  const rest = new Float64Array(order.length);
  while (rowid !== Infinity) {
    if (rowid > end) {
      driverBound = driver.shallow(rowid);
      end = driver.shallowEnd;
      let after = 0;
      for (let o = order.length - 1; o >= 1; o -= 1) {
        rest[o] = after;
        const list = lists[order[o]];
        after += list.shallow(rowid);
        end = Math.min(end, list.shallowEnd);
      }
      rest[0] = after;
    }
    const othersBound = rest[0];
    if (scorer.blockCannotEnter(driverBound + othersBound)) {
      driver.seek(end + 1);
      rowid = driver.current;
      continue;
    }
    if (scorer.weak(driver, othersBound)) {
      // Most driver rows fall to their own share before any other list is looked at: passed over in bulk.
      visited += scorer.skipWeak(driver, othersBound, end);
      rowid = driver.current;
      continue;
    }
    visited += 1;
    rowid = intersect(rowid, driver, order, lists, scorer, rest, accept);
  }
  return visited;
}

/**
 * One driver row: scored if every list holds it and it may enter; returns the next rowid to try. The
 * lists are looked up shortest first, and after each the row's shares so far plus `rest` must still
 * reach the k-th score: the long lists of common words, whose pages a lookup would read, are left
 * alone for a row their small shares cannot lift in.
 */
function intersect(
  rowid: number,
  driver: PostingList,
  order: number[],
  lists: PostingList[],
  scorer: RowScorer,
  rest: Float64Array,
  accept?: (rowid: number) => boolean,
): number {
  scorer.start();
  scorer.add(order[0], driver.part);
  if (scorer.cannotEnter(rest[0]) || (accept && !accept(rowid))) {
    driver.next();
    return driver.current;
  }
  for (let o = 1; o < order.length; o += 1) {
    const list = lists[order[o]];
    scorer.add(order[o], list.seek(rowid));
    if (list.current !== rowid) {
      driver.seek(list.current);
      return driver.current;
    }
    if (o + 1 < order.length && scorer.cannotEnter(rest[o])) {
      driver.next();
      return driver.current;
    }
  }
  scorer.offer(rowid);
  driver.next();
  return driver.current;
}

/** MaxScore over OR: lists by ascending maximum; the low ones become probe-only as the threshold rises. */
function union(lists: PostingList[], scorer: RowScorer, accept?: (rowid: number) => boolean): number {
  const order = lists.map((_, i) => i).sort((a, b) => lists[a].maxImpact - lists[b].maxImpact);
  const bounds: number[] = [];
  order.forEach((list, i) => bounds.push((bounds[i - 1] ?? 0) + lists[list].maxImpact));
  let essential = 0;
  for (let visited = 0; ; visited += 1) {
    if (essential === order.length - 1) {
      // One list left to draw rows from: those whose share with every other list's maximum stays below
      // the k-th score are passed over in bulk (the block maxima below would rule each out anyway).
      const list = lists[order[essential]];
      const more = essential > 0 ? bounds[essential - 1] : 0;
      if (list.current !== Infinity && scorer.weak(list, more)) visited += scorer.skipWeak(list, more, Infinity);
    }
    let rowid = Infinity;
    for (let i = essential; i < order.length; i += 1) rowid = Math.min(rowid, lists[order[i]].current);
    if (rowid === Infinity) return visited;
    scorer.start();
    for (let i = essential; i < order.length; i += 1) {
      const list = lists[order[i]];
      if (list.current !== rowid) continue;
      scorer.add(order[i], list.part);
      list.next();
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

/** The most the lists `order[0..upTo]` can add to a row at `rowid`: the sum of their block maxima there. */
function blockBound(lists: PostingList[], order: number[], upTo: number, rowid: number): number {
  let bound = 0;
  for (let i = 0; i <= upTo; i += 1) bound += lists[order[i]].shallow(rowid);
  return bound;
}
