import Database from 'better-sqlite3';
import fc from 'fast-check';
import { ObjectType } from '../knowledge-network.types';
import { nameMatcher } from '../name-match';
import { buildNameSignatures, mayBeNamed, NameSignatures, nameSignature } from './name-signatures';
import { ObjectTable } from './object-table';
import { sqliteAffinity, toSqlValue } from './property-types';
import { Shortlist } from './shortlist';

/** Characters nameMatcher folds (full width, case, traditional Chinese, compatibility forms) and plain ones. */
const ALPHABET = [...'aAbBｂＢ1１ 　年終终獎奖ﬁfiⅫxiiｶﾞガ-_.é'];
const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }).map((chars) => chars.join(''));

describe('name signatures', () => {
  it('never rule out a name the query is named like (equal, contains or contained in, as searched)', () => {
    fc.assert(
      fc.property(text, text, (name, query) => {
        const named = name === query || nameMatcher(query)(name) > 0;
        return !named || mayBeNamed(nameSignature(name), nameSignature(query));
      }),
      { numRuns: 20000 },
    );
  });

  it('never rule out a query that contains the name or that the name contains', () => {
    fc.assert(
      fc.property(text, text, text, (before, core, after) => {
        const outer = `${before}${core}${after}`;
        return (
          mayBeNamed(nameSignature(outer), nameSignature(core)) && mayBeNamed(nameSignature(core), nameSignature(outer))
        );
      }),
    );
  });

  it('rule out most names that share nothing with the query', () => {
    expect(mayBeNamed(nameSignature('Widget Pro 3000'), nameSignature('糖尿病 饮食'))).toBe(false);
    expect(mayBeNamed(nameSignature('2型糖尿病'), nameSignature('糖尿病'))).toBe(true);
    expect(mayBeNamed(nameSignature('糖尿病'), nameSignature('2型糖尿病 饮食'))).toBe(true);
  });

  describe('stored with an index', () => {
    const type = {
      id: 'thing',
      name: 'Thing',
      primary_keys: ['id'],
      display_key: 'name',
      data_properties: [
        { name: 'id', type: 'string', condition_operations: ['=='] },
        { name: 'name', type: 'string', condition_operations: ['=='] },
      ],
    } as unknown as ObjectType;
    const NAMES = ['Alice', 'ａｌｉｃｅ Smith', null, '年終獎', '2型糖尿病', 'Widget', '', 'Bob'];
    const QUERIES = ['alice', 'Alice Smith', 'smith', '年终奖 发放', '糖尿病', 'widget pro', 'nobody', ''];
    const table = new ObjectTable(0, type);
    // Rowids across two chunks and a gap, as a network's later types have.
    const rowids = NAMES.map((_, i) => 8190 + 3 * i);
    let db: Database.Database;

    beforeAll(() => {
      db = new Database(':memory:');
      const columns = type.data_properties.map((p, i) => `c${i} ${sqliteAffinity(p.type)}`).join(', ');
      db.exec(`CREATE TABLE ot_0 (_rowid INTEGER PRIMARY KEY, ${columns})`);
      const insert = db.prepare('INSERT INTO ot_0 VALUES (?, ?, ?)');
      NAMES.forEach((name, i) => insert.run(rowids[i], `T${i}`, name === null ? null : toSqlValue(name, 'string')));
      buildNameSignatures(db, table);
    });

    afterAll(() => db.close());

    it('keeps every row the shortlist would keep by name, and rules out others', () => {
      const signatures = NameSignatures.open(db, table)!;
      expect(signatures).toBeDefined();
      const probes = db.prepare('SELECT t._rowid, t.c1 FROM ot_0 t ORDER BY t._rowid').raw(true).all() as unknown[][];
      let ruledOut = 0;
      for (const query of QUERIES) {
        const shortlist = new Shortlist(table, { first: 0, named: query });
        const hits = rowids.map((rowid) => ({ rowid, score: 1 }));
        const candidates = new Set(signatures.candidates(hits, shortlist.signature).map((hit) => hit.rowid));
        probes.forEach((probe) => {
          const rowid = probe[0] as number;
          if (shortlist.keepsScored(probe))
            expect({ query, rowid, candidate: candidates.has(rowid) }).toEqual({
              query,
              rowid,
              candidate: true,
            });
        });
        ruledOut += hits.length - candidates.size;
      }
      expect(ruledOut).toBeGreaterThan(20);
    });

    it('passes every row of a chunk not stored, and is not used when built by code that folds otherwise', () => {
      const signatures = NameSignatures.open(db, table)!;
      const far = [{ rowid: 10 ** 6, score: 1 }];
      expect(signatures.candidates(far, nameSignature('anything'))).toEqual(far);
      const fingerprint = db.prepare('SELECT fingerprint FROM name_signature_info').pluck(true).get();
      db.prepare('UPDATE name_signature_info SET fingerprint = ?').run('another');
      try {
        expect(NameSignatures.open(db, table)).toBeUndefined();
      } finally {
        db.prepare('UPDATE name_signature_info SET fingerprint = ?').run(fingerprint);
      }
    });
  });
});
