import { openDatabase } from '../sqlite/open-database';
import { FTS5_TOKENIZER } from './fts5-tokens';
import { buildImpactPostings } from './impact-postings';

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
    buildImpactPostings(db, { fts: 'docs', postings: 'whole', weights });
    const dump = (table: string): unknown[] => db.prepare(`SELECT * FROM ${table} ORDER BY term`).raw().all();
    const whole = dump('whole');
    expect(whole.length).toBe(WORDS.length);
    for (const batchRows of [1, 2, 3, 7, 64, 1000]) {
      buildImpactPostings(db, { fts: 'docs', postings: `batch_${batchRows}`, weights }, batchRows);
      expect([batchRows, dump(`batch_${batchRows}`)]).toEqual([batchRows, whole]);
    }
    db.close();
  });
});
