import { openDatabase } from '../sqlite/open-database';
import { FTS5_TOKENIZER } from './fts5-tokens';
import { buildImpactPostings, impactOrder } from './impact-postings';

const WORDS = Array.from({ length: 12 }, (_, i) => `w${i}`);

describe('buildImpactPostings', () => {
  it('writes the same postings whatever the batch size, a term read across several batches', () => {
    const db = openDatabase();
    db.exec(`CREATE VIRTUAL TABLE docs USING fts5(name, body, content='', tokenize='${FTS5_TOKENIZER}')`);
    const insert = db.prepare('INSERT INTO docs(rowid, name, body) VALUES (?, ?, ?)');
    let state = 11;
    const next = (): number => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    const words = (count: number): string =>
      Array.from({ length: count }, () => WORDS[Math.floor(next() * next() * WORDS.length)]).join(' ');
    // Rowids start past 1 and leave a gap, as a network's second object type and a deleted passage do.
    for (let rowid = 101; rowid <= 400; rowid += rowid === 250 ? 50 : 1) {
      insert.run(rowid, words(1 + Math.floor(next() * 2)), words(Math.floor(next() * 12)));
    }
    const weights = new Map([['name', 5]]);
    buildImpactPostings(db, { fts: 'docs', postings: 'whole', weights }, { blockSize: 32, pageBlocks: 4 });
    const dump = (table: string): unknown[] => [
      db.prepare(`SELECT * FROM ${table} ORDER BY term`).raw().all(),
      db.prepare(`SELECT * FROM ${table}_pages ORDER BY id`).raw().all(),
    ];
    const whole = dump('whole');
    for (const batchRows of [1, 2, 3, 7, 64, 1000]) {
      buildImpactPostings(
        db,
        { fts: 'docs', postings: `batch_${batchRows}`, weights },
        { batchRows, blockSize: 32, pageBlocks: 4 },
      );
      expect([batchRows, dump(`batch_${batchRows}`)]).toEqual([batchRows, whole]);
    }
    const terms = db.prepare('SELECT term, count, first_page IS NULL AS inline FROM whole ORDER BY term').all();
    expect(terms).toHaveLength(WORDS.length);
    // Some lists fit in their term's row, some take pages.
    expect(new Set(terms.map((term) => (term as { inline: number }).inline))).toEqual(new Set([0, 1]));
    db.close();
  });

  it('orders postings by descending part, equal parts by position', () => {
    const parts = Float64Array.of(0.5, 2, 0.5, 1, 2, 0, 1, 0.5);
    expect(Array.from(impactOrder(parts))).toEqual([1, 4, 3, 6, 0, 2, 7, 5]);
    expect(Array.from(impactOrder(new Float64Array(0)))).toEqual([]);
  });
});
