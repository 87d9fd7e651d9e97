import type Database from 'better-sqlite3';
import { openDatabase } from '../sqlite/open-database';
import { FTS5_TOKENIZER } from './fts5-tokens';
import { buildImpactPostings } from './impact-postings';
import { ImpactTopK } from './impact-top-k';
import { fts5PhraseSum } from './phrase-sum';
import { blocksOf, PostingList, PostingPage, TermPostings } from './posting-list';

/** Postings per block and blocks per page in these corpora: small, so lists span many pages and blocks get skipped. */
const BLOCK = 8;
const PAGE_BLOCKS = 2;

/** A deterministic generator, so a failing corpus or query can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

interface Corpus {
  db: Database.Database;
  words: string[];
}

/**
 * A random corpus whose row lengths drift with the rowid (long rows, low shares, come in runs), so whole
 * blocks of postings fall below the k-th score and are skipped, and the vocabulary is skewed.
 */
function corpus(seed: number, rows: number): Corpus {
  const next = random(seed);
  const words = Array.from({ length: 20 + Math.floor(next() * 60) }, (_, i) => `t${seed}x${i}`);
  const pick = (): string => words[Math.floor(next() * next() * words.length)];
  const db = openDatabase();
  db.exec(`CREATE VIRTUAL TABLE docs USING fts5(title, body, content='', tokenize='${FTS5_TOKENIZER}')`);
  const insert = db.prepare('INSERT INTO docs(rowid, title, body) VALUES (?, ?, ?)');
  for (let rowid = 1; rowid <= rows; rowid += 1) {
    const run = Math.floor(rowid / (BLOCK * (1 + Math.floor(next() * 4))));
    const length = run % 3 === 0 ? 2 + Math.floor(next() * 6) : 20 + Math.floor(next() * 120);
    const title = Array.from({ length: 1 + Math.floor(next() * 3) }, pick).join(' ');
    insert.run(rowid, title, Array.from({ length }, pick).join(' '));
  }
  buildImpactPostings(
    db,
    { fts: 'docs', postings: 'docs_postings', weights: new Map([['title', 3]]) },
    { blockSize: BLOCK, pageBlocks: PAGE_BLOCKS },
  );
  return { db, words };
}

describe('block-max top k', () => {
  it.each([3, 17, 29, 41, 53])(
    'equals FTS5 bm25 for random AND and OR queries on random corpus %i',
    (seed) => {
      const { db, words } = corpus(seed, 2500 + seed * 40);
      const topK = new ImpactTopK(db, 'docs_postings', fts5PhraseSum()!);
      const fts = db.prepare(
        'SELECT rowid, -bm25(docs, 3.0) AS score FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 3.0), rowid LIMIT ?',
      );
      const count = db.prepare('SELECT count(*) FROM docs WHERE docs MATCH ?').pluck();
      const next = random(seed * 7 + 1);
      let examined = 0;
      let matched = 0;
      for (let query = 0; query < 120; query += 1) {
        const terms = Array.from(
          { length: 2 + Math.floor(next() * 3) },
          () => words[Math.floor(next() * next() * words.length)],
        );
        const every = next() < 0.5;
        const k = [1, 10, 50][Math.floor(next() * 3)];
        const expression = terms.map((term) => `"${term}"`).join(every ? ' AND ' : ' OR ');
        const answer = topK.search({ terms, every, k });
        expect({ terms, every, k, hits: answer.hits }).toEqual({ terms, every, k, hits: fts.all(expression, k) });
        examined += answer.examined;
        matched += count.get(expression) as number;
      }
      expect(examined).toBeLessThan(matched);
      db.close();
    },
    60000,
  );

  it('tells whether any row holds every term, or any, as an FTS5 MATCH finds', () => {
    const { db, words } = corpus(61, 1500);
    const topK = new ImpactTopK(db, 'docs_postings', fts5PhraseSum()!);
    const any = db.prepare('SELECT 1 FROM docs WHERE docs MATCH ? LIMIT 1').pluck();
    const next = random(5);
    let found = 0;
    for (let query = 0; query < 200; query += 1) {
      const terms = Array.from({ length: 1 + Math.floor(next() * 4) }, () =>
        next() < 0.1 ? 'absent' : words[Math.floor(next() * words.length)],
      );
      for (const every of [true, false]) {
        const expected = any.get(terms.map((term) => `"${term}"`).join(every ? ' AND ' : ' OR ')) === 1;
        expect({ terms, every, matches: topK.matches(terms, every) }).toEqual({ terms, every, matches: expected });
        if (every && expected) found += 1;
      }
    }
    expect(found).toBeGreaterThan(20);
    db.close();
  });

  it('bounds every row of a block by the block maximum, says where the block ends, and reads no page it skips', () => {
    const PAGE = BLOCK * PAGE_BLOCKS;
    const rowids = Int32Array.from({ length: 3 * PAGE + 5 }, (_, i) => 2 * i + 1);
    const parts = Float64Array.from(rowids, (_, i) => (i % 7) / 10 + (i === BLOCK + 3 ? 1 : 0));
    const pages: PostingPage[] = [];
    for (let from = 0; from < rowids.length; from += PAGE)
      pages.push({ rowids: rowids.subarray(from, from + PAGE), parts: parts.subarray(from, from + PAGE) });
    const read: number[] = [];
    const blocks = blocksOf(2, rowids, parts, BLOCK);
    const postings = new TermPostings(2, rowids.length, 2 * Math.max(...parts), blocks, PAGE_BLOCKS, (index) => {
      read.push(index);
      return pages[index];
    });
    expect(postings.pages).toBe(4);
    const best = (from: number, to: number): number => 2 * Math.max(...parts.subarray(from, to));
    const list = new PostingList(postings);
    expect(list.shallow(1)).toBe(best(0, BLOCK));
    expect(list.shallowEnd).toBe(rowids[BLOCK - 1]);
    expect(list.shallow(rowids[BLOCK - 1] + 1)).toBe(2 * parts[BLOCK + 3]);
    expect(list.shallowEnd).toBe(rowids[2 * BLOCK - 1]);
    expect(list.shallow(rowids[rowids.length - 1])).toBe(best(3 * PAGE, rowids.length));
    expect(list.shallow(rowids[rowids.length - 1] + 1)).toBe(0);
    expect(list.shallowEnd).toBe(Infinity);
    expect(list.seek(rowids[3 * PAGE + 1])).toBe(parts[3 * PAGE + 1]);
    expect(read).toEqual([0, 3]);
  });

  it('passes over weak postings in bulk, up to a rowid or across into the next page, and stops at a tie', () => {
    const PAGE = BLOCK * PAGE_BLOCKS;
    const rowids = Int32Array.from({ length: 2 * PAGE }, (_, i) => 3 * i + 2);
    const parts = Float64Array.from(rowids, (_, i) => (i % 5) / 10);
    const read: number[] = [];
    const postings = new TermPostings(
      2,
      rowids.length,
      0.8,
      blocksOf(2, rowids, parts, BLOCK),
      PAGE_BLOCKS,
      (index) => {
        read.push(index);
        return {
          rowids: rowids.subarray(index * PAGE, (index + 1) * PAGE),
          parts: parts.subarray(index * PAGE, (index + 1) * PAGE),
        };
      },
    );
    const list = new PostingList(postings);
    // Every share is weak against 100: the rowid limit stops it, then the page's end (the next page is read).
    expect(list.skipWeak(2, 0, 1, 100, rowids[5])).toBe(6);
    expect(list.current).toBe(rowids[6]);
    expect(list.skipWeak(2, 0, 1, 100, Infinity)).toBe(PAGE - 6);
    expect(list.current).toBe(rowids[PAGE]);
    expect(read).toEqual([0, 1]);
    // The second page's shares from 2 × .1 on, plus .1, against .6: .3 and .5 fall, .7 stops it.
    expect(list.skipWeak(2, 0.1, 1, 0.6, Infinity)).toBe(2);
    expect(list.part).toBe(0.3);
    // A row whose bound equals the threshold may still enter (ties go by rowid): it is not passed over.
    expect(list.skipWeak(2, 0, 1, 2 * 0.3, Infinity)).toBe(0);
    // The same bound with the scorer's slack on top does not reach it either.
    expect(list.skipWeak(2, 0, 1 + 1e-9, 2 * 0.3, Infinity)).toBe(0);
  });
});
