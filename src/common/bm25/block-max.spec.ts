import type Database from 'better-sqlite3';
import { openDatabase } from '../sqlite/open-database';
import { FTS5_TOKENIZER } from './fts5-tokens';
import { buildImpactPostings } from './impact-postings';
import { ImpactTopK } from './impact-top-k';
import { fts5PhraseSum } from './phrase-sum';
import { BLOCK_SIZE, Postings, PostingList } from './posting-list';

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
    const run = Math.floor(rowid / (BLOCK_SIZE * (1 + Math.floor(next() * 4))));
    const length = run % 3 === 0 ? 2 + Math.floor(next() * 6) : 20 + Math.floor(next() * 120);
    const title = Array.from({ length: 1 + Math.floor(next() * 3) }, pick).join(' ');
    insert.run(rowid, title, Array.from({ length }, pick).join(' '));
  }
  buildImpactPostings(db, { fts: 'docs', postings: 'docs_postings', weights: new Map([['title', 3]]) });
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

  it('bounds every row of a block by the block maximum, and says where the block ends', () => {
    const rowids = Int32Array.from({ length: 3 * BLOCK_SIZE + 5 }, (_, i) => 2 * i + 1);
    const parts = Float64Array.from(rowids, (_, i) => (i % 7) / 10 + (i === BLOCK_SIZE + 3 ? 1 : 0));
    const postings = new Postings(2, rowids, parts, 2 * Math.max(...parts));
    const list = new PostingList(postings);
    expect(list.shallow(1)).toBe(2 * Math.max(...parts.subarray(0, BLOCK_SIZE)));
    expect(list.shallowEnd).toBe(rowids[BLOCK_SIZE - 1]);
    expect(list.shallow(rowids[BLOCK_SIZE - 1] + 1)).toBe(2 * parts[BLOCK_SIZE + 3]);
    expect(list.shallowEnd).toBe(rowids[2 * BLOCK_SIZE - 1]);
    expect(list.shallow(rowids[rowids.length - 1])).toBe(2 * Math.max(...parts.subarray(3 * BLOCK_SIZE)));
    expect(list.shallow(rowids[rowids.length - 1] + 1)).toBe(0);
    expect(list.shallowEnd).toBe(Infinity);
  });
});
