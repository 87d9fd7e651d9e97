import type Database from 'better-sqlite3';
import { openDatabase } from '../sqlite/open-database';
import { FTS5_TOKENIZER } from './fts5-tokens';
import { buildImpactPostings, PostingsLayout } from './impact-postings';
import { ImpactTopK } from './impact-top-k';
import { fts5PhraseSum } from './phrase-sum';

const WORDS = Array.from({ length: 60 }, (_, i) => `w${i}`);

/** A deterministic generator, so a failing query can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** Skewed word choice (a few words in most rows, most in few), the shape that makes pruning matter. */
function text(next: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(next() * next() * next() * WORDS.length)]).join(' ');
}

function corpus(rows: number): Database.Database {
  const db = openDatabase();
  db.exec(`CREATE VIRTUAL TABLE docs USING fts5(name, body, note, content='', tokenize='${FTS5_TOKENIZER}')`);
  const insert = db.prepare('INSERT INTO docs(rowid, name, body, note) VALUES (?, ?, ?, ?)');
  const next = random(7);
  for (let rowid = 1; rowid <= rows; rowid += 1) {
    const empty = rowid % 53 === 0;
    insert.run(
      rowid,
      empty ? '' : text(next, 1 + Math.floor(next() * 3)),
      empty ? '' : text(next, Math.floor(next() * 40)),
      text(next, 2),
    );
  }
  const weights = new Map([['name', 5]]);
  buildImpactPostings(db, { fts: 'docs', postings: 'docs_postings', weights });
  for (const [postings, layout] of Object.entries(LAYOUTS))
    buildImpactPostings(db, { fts: 'docs', postings, weights }, layout);
  return db;
}

/** The same postings cut other ways: each must give the same answers. */
const LAYOUTS: Record<string, Partial<PostingsLayout>> = {
  // Pages of three postings, tiered at the default shares.
  docs_pages_of_3: { blockSize: 1, pageBlocks: 3 },
  // Without tiers: the block-max searches over pages.
  docs_untiered: { blockSize: 1, pageBlocks: 3, tierShares: [] },
  // Many tiers, blocks of two.
  docs_many_tiers: { blockSize: 2, pageBlocks: 4, tierShares: [0.01, 0.03, 0.1, 0.3, 0.6] },
  // Pages of 64, tiered at the default shares, and the same without tiers.
  docs_pages_of_64: { blockSize: 16, pageBlocks: 4 },
  docs_pages_of_64_untiered: { blockSize: 16, pageBlocks: 4, tierShares: [] },
};

describe('ImpactTopK', () => {
  const db = corpus(3000);
  const topK = new ImpactTopK(db, 'docs_postings', fts5PhraseSum()!);
  const fts = db.prepare(
    'SELECT rowid, -bm25(docs, 5.0) AS score FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 5.0), rowid LIMIT ?',
  );
  afterAll(() => db.close());

  const queries = (() => {
    const next = random(11);
    return Array.from({ length: 200 }, () => {
      const size = 1 + Math.floor(next() * 4);
      return Array.from({ length: size }, () => WORDS[Math.floor(next() * next() * WORDS.length)]);
    });
  })();

  const layouts = Object.keys(LAYOUTS).map((postings) => new ImpactTopK(db, postings, fts5PhraseSum()!));
  const layout = (postings: string): ImpactTopK => layouts[Object.keys(LAYOUTS).indexOf(postings)];

  it.each([
    { joiner: 'OR', every: false, k: 10 },
    { joiner: 'AND', every: true, k: 10 },
    { joiner: 'OR', every: false, k: 1 },
    { joiner: 'OR', every: false, k: 1500 },
    { joiner: 'AND', every: true, k: 50 },
  ])('returns the rows and scores of FTS5 bm25 for $joiner queries, top $k', ({ joiner, every, k }) => {
    let examined = 0;
    let matched = 0;
    for (const terms of queries) {
      const expression = terms.map((term) => `"${term}"`).join(` ${joiner} `);
      const expected = fts.all(expression, k);
      const answer = topK.search({ terms, every, k });
      expect(answer.hits).toEqual(expected);
      // The same postings cut into pages and tiers: the same answer.
      for (const layout of layouts) expect(layout.search({ terms, every, k }).hits).toEqual(expected);
      examined += answer.examined;
      matched += db.prepare('SELECT count(*) FROM docs WHERE docs MATCH ?').pluck().get(expression) as number;
    }
    if (k === 10) expect(examined).toBeLessThan(matched);
  });

  it('looks at fewer rows with tiers than without, for the same answers', () => {
    const [tiered, untiered] = [layout('docs_pages_of_64'), layout('docs_pages_of_64_untiered')];
    for (const every of [true, false]) {
      let [withTiers, without] = [0, 0];
      for (const terms of queries.filter((query) => query.length > 1)) {
        const a = tiered.search({ terms, every, k: 10 });
        const b = untiered.search({ terms, every, k: 10 });
        expect(a.hits).toEqual(b.hits);
        withTiers += a.examined;
        without += b.examined;
      }
      expect(withTiers).toBeLessThan(without);
    }
  });

  it('skips rows the caller does not accept, as a WHERE on the rowid would', () => {
    const filtered = db.prepare(
      'SELECT rowid, -bm25(docs, 5.0) AS score FROM docs WHERE docs MATCH ? AND rowid % 3 = 0 ORDER BY bm25(docs, 5.0), rowid LIMIT 10',
    );
    for (const terms of queries.slice(0, 50)) {
      const expected = filtered.all(terms.map((term) => `"${term}"`).join(' OR '));
      for (const search of [topK, ...layouts]) {
        for (const every of [false, true]) {
          const accept = (rowid: number): boolean => rowid % 3 === 0;
          const wanted = every ? filtered.all(terms.map((term) => `"${term}"`).join(' AND ')) : expected;
          expect(search.search({ terms, every, k: 10, accept }).hits).toEqual(wanted);
        }
      }
    }
  });

  it('scores a repeated term once per phrase, as FTS5 does', () => {
    const expected = fts.all('"w1" OR "w1" OR "w2"', 10);
    for (const search of [topK, ...layouts])
      expect(search.search({ terms: ['w1', 'w1', 'w2'], every: false, k: 10 }).hits).toEqual(expected);
  });

  it('finds nothing for a term no row holds, and nothing for AND with it', () => {
    for (const search of [topK, ...layouts]) {
      expect(search.search({ terms: ['absent'], every: false, k: 10 }).hits).toEqual([]);
      expect(search.search({ terms: ['w1', 'absent'], every: true, k: 10 }).hits).toEqual([]);
      expect(search.search({ terms: ['w1', 'absent'], every: false, k: 10 }).hits).toEqual(
        fts.all('"w1" OR "absent"', 10),
      );
    }
  });
});
