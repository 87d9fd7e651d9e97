import { openDatabase } from '../sqlite/open-database';
import { FTS5_TOKENIZER } from './fts5-tokens';
import { buildImpactPostings, impactOrder, tierSizes } from './impact-postings';

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

  it('cuts tiers where the part changes, smallest first, leaving out a tier that would split equal parts', () => {
    // Parts by impact: 9, 8, 8, 8, 7, 7, 5, 5, 5, 5, 5, 5 (12 postings).
    const parts = Float64Array.of(5, 8, 5, 7, 9, 5, 8, 5, 7, 5, 8, 5);
    const order = impactOrder(parts);
    // A twelfth: 1 (the 9); a quarter: 3 → back to 1, the same tier, left out; a half: 6 (9, 8s, 7s).
    expect(tierSizes(parts, order, [1 / 12, 1 / 4, 1 / 2])).toEqual([1, 6]);
    // A share inside the first run of equal parts leaves no tier.
    expect(tierSizes(Float64Array.of(3, 3, 3, 1), impactOrder(Float64Array.of(3, 3, 3, 1)), [0.5])).toEqual([]);
    // Nor is the whole list a tier.
    expect(tierSizes(Float64Array.of(3, 3), impactOrder(Float64Array.of(3, 3)), [0.99])).toEqual([]);
  });

  it('stores each tier in rowid order with the best share it leaves out', () => {
    const db = openDatabase();
    db.exec(`CREATE VIRTUAL TABLE docs USING fts5(body, content='', tokenize='${FTS5_TOKENIZER}')`);
    const insert = db.prepare('INSERT INTO docs(rowid, body) VALUES (?, ?)');
    // Three parts for "w": twice in a short row (rowid % 10 = 0: the best), alone in a row (% 7), once in a long row.
    for (let rowid = 1; rowid <= 40; rowid += 1) {
      insert.run(rowid, rowid % 10 === 0 ? 'w w filler' : rowid % 7 === 0 ? 'w' : 'w filler filler filler filler');
    }
    buildImpactPostings(
      db,
      { fts: 'docs', postings: 'p', weights: new Map() },
      {
        blockSize: 2,
        pageBlocks: 2,
        tierShares: [0.05, 0.1, 0.25],
      },
    );
    const [tiers, first] = db.prepare("SELECT tiers, first_page FROM p WHERE term = 'w'").raw().get() as [
      Buffer,
      number,
    ];
    const fields = Array.from(new Float64Array(new Uint8Array(tiers).buffer));
    const page = db.prepare('SELECT data FROM p_pages WHERE id = ?').pluck();
    const rowidsFrom = (id: number, count: number): number[] => {
      const rowids: number[] = [];
      while (rowids.length < count) {
        const blob = page.get(id++) as Buffer;
        const length = blob.byteLength / 12;
        rowids.push(...new Int32Array(new Uint8Array(blob).buffer, 8 * length, length));
      }
      return rowids;
    };
    // 40 postings: 10 pages in rowid order, then the impact page; the tiers after it.
    expect(fields[2]).toBe(first + 11);
    const [below0, size0, page0, blocks0, below1, size1, page1, blocks1] = fields;
    // 5 % of 40 is inside the run of the best part (4 rows): no tier; 10 % is that run; 25 % ends after the next.
    expect(fields).toHaveLength(8);
    expect([size0, size1]).toEqual([4, 9]);
    expect(rowidsFrom(page0, size0)).toEqual([10, 20, 30, 40]);
    expect(rowidsFrom(page1, size1)).toEqual([7, 10, 14, 20, 21, 28, 30, 35, 40]);
    expect([blocks0, blocks1]).toEqual([2, 5]);
    expect(page1).toBe(page0 + 1);
    expect(below0).toBeGreaterThan(below1);
    db.close();
  });

  it('orders postings by descending part, equal parts by position', () => {
    const parts = Float64Array.of(0.5, 2, 0.5, 1, 2, 0, 1, 0.5);
    expect(Array.from(impactOrder(parts))).toEqual([1, 4, 3, 6, 0, 2, 7, 5]);
    expect(Array.from(impactOrder(new Float64Array(0)))).toEqual([]);
  });
});
