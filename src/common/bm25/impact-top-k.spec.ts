import type Database from 'better-sqlite3';
import { openDatabase } from '../sqlite/open-database';
import { FTS5_TOKENIZER } from './fts5-tokens';
import { buildImpactPostings } from './impact-postings';
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
  buildImpactPostings(db, { fts: 'docs', postings: 'docs_pages_of_3', weights }, { blockSize: 1, pageBlocks: 3 });
  return db;
}

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

  const pagesOf3 = new ImpactTopK(db, 'docs_pages_of_3', fts5PhraseSum()!);

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
      // The same postings cut into pages of three postings: the same answer.
      expect(pagesOf3.search({ terms, every, k }).hits).toEqual(expected);
      examined += answer.examined;
      matched += db.prepare('SELECT count(*) FROM docs WHERE docs MATCH ?').pluck().get(expression) as number;
    }
    if (k === 10) expect(examined).toBeLessThan(matched);
  });

  it('skips rows the caller does not accept, as a WHERE on the rowid would', () => {
    const filtered = db.prepare(
      'SELECT rowid, -bm25(docs, 5.0) AS score FROM docs WHERE docs MATCH ? AND rowid % 3 = 0 ORDER BY bm25(docs, 5.0), rowid LIMIT 10',
    );
    for (const terms of queries.slice(0, 50)) {
      const expected = filtered.all(terms.map((term) => `"${term}"`).join(' OR '));
      for (const search of [topK, pagesOf3]) {
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
    expect(topK.search({ terms: ['w1', 'w1', 'w2'], every: false, k: 10 }).hits).toEqual(expected);
  });

  it('finds nothing for a term no row holds, and nothing for AND with it', () => {
    expect(topK.search({ terms: ['absent'], every: false, k: 10 }).hits).toEqual([]);
    expect(topK.search({ terms: ['w1', 'absent'], every: true, k: 10 }).hits).toEqual([]);
    expect(topK.search({ terms: ['w1', 'absent'], every: false, k: 10 }).hits).toEqual(fts.all('"w1" OR "absent"', 10));
  });
});
