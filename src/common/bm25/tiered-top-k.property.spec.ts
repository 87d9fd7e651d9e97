import fc from 'fast-check';
import { openDatabase } from '../sqlite/open-database';
import { FTS5_TOKENIZER } from './fts5-tokens';
import { buildImpactPostings } from './impact-postings';
import { ImpactTopK } from './impact-top-k';
import { fts5PhraseSum } from './phrase-sum';

const WORDS = ['a', 'b', 'c', 'd', 'e', 'f'];

/** Rows of a few words each, skewed so that some words are in most rows and their parts repeat. */
const corpus = fc.array(
  fc.record({
    name: fc.array(fc.nat({ max: 11 }), { maxLength: 3, size: 'max' }),
    body: fc.array(fc.nat({ max: 11 }), { maxLength: 12, size: 'max' }),
  }),
  { minLength: 1, maxLength: 400, size: 'max' },
);
// Indexes 0–11 onto six words, the first ones most often.
const word = (index: number): string => WORDS[Math.floor(Math.sqrt(index * 3))];

const layout = fc.record({
  blockSize: fc.integer({ min: 1, max: 8 }),
  pageBlocks: fc.integer({ min: 1, max: 4 }),
  tierShares: fc
    .uniqueArray(fc.double({ min: 0.01, max: 0.9, noNaN: true }), { maxLength: 4, size: 'max' })
    .map((shares) => [...shares].sort((a, b) => a - b)),
});

const query = fc.record({
  terms: fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 5 }),
  every: fc.boolean(),
  k: fc.integer({ min: 1, max: 30 }),
  modulo: fc.integer({ min: 1, max: 3 }),
});

describe('tiered top k (property)', () => {
  it('equals FTS5 bm25 for any rows, layout and query, with or without a scope', () => {
    fc.assert(
      fc.property(
        corpus,
        layout,
        fc.array(query, { minLength: 1, maxLength: 8, size: 'max' }),
        (rows, cut, queries) => {
          const db = openDatabase();
          try {
            db.exec(`CREATE VIRTUAL TABLE docs USING fts5(name, body, tokenize='${FTS5_TOKENIZER}')`);
            const insert = db.prepare('INSERT INTO docs(rowid, name, body) VALUES (?, ?, ?)');
            rows.forEach((row, i) => insert.run(i + 1, row.name.map(word).join(' '), row.body.map(word).join(' ')));
            buildImpactPostings(db, { fts: 'docs', postings: 'p', weights: new Map([['name', 5]]) }, cut);
            const search = new ImpactTopK(db, 'p', fts5PhraseSum()!);
            const fts = db.prepare(
              'SELECT rowid, -bm25(docs, 5.0) AS score FROM docs WHERE docs MATCH ? AND rowid % ? = 0 ' +
                'ORDER BY bm25(docs, 5.0), rowid LIMIT ?',
            );
            for (const { terms, every, k, modulo } of queries) {
              const expression = terms.map((term) => `"${term}"`).join(every ? ' AND ' : ' OR ');
              const accept = modulo === 1 ? undefined : (rowid: number): boolean => rowid % modulo === 0;
              expect(search.search({ terms, every, k, accept }).hits).toEqual(fts.all(expression, modulo, k));
            }
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
