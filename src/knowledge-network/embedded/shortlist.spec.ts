import Database from 'better-sqlite3';
import { ObjectType } from '../knowledge-network.types';
import { ObjectTable } from './object-table';
import { sqliteAffinity, toSqlValue } from './property-types';
import { rowToInstance, Row } from './row-mapping';
import { Shortlist } from './shortlist';

const TYPES = ['string', 'text', 'integer', 'float', 'boolean', 'json', 'date'] as const;

const type = {
  id: 'thing',
  name: 'Thing',
  primary_keys: ['p0'],
  display_key: 'p0',
  data_properties: TYPES.map((kind, i) => ({ name: `p${i}`, type: kind, condition_operations: ['=='] })),
} as unknown as ObjectType;

// Values of every type, some of them text that looks like another type's value.
const ROWS: unknown[][] = [
  ['Alice', 'abc', 1, 1.5, true, { a: 1 }, '2024-01-01'],
  ['alice', '1', 7, 2, false, 'abc', '2024-01-02'],
  ['Ａｌｉｃｅ Smith', '1.5', 0, 0.5, true, '"1"', null],
  [null, null, null, null, null, null, null],
  ['007', 'true', 1, 1, false, ['abc'], '007'],
  ['C0000001', 'Alice', 42, 3.25, true, 1, 'abc'],
];

const QUERIES = ['abc', '1', '1.5', '007', 'true', 'Alice', 'alice', 'Smith', '2024-01-01', '"1"', 'C0000001', '42'];

describe('Shortlist', () => {
  const table = new ObjectTable(0, type);
  const db = new Database(':memory:');

  beforeAll(() => {
    const columns = type.data_properties.map((p, i) => `c${i} ${sqliteAffinity(p.type)}`).join(', ');
    db.exec(`CREATE TABLE ot_0 (_rowid INTEGER PRIMARY KEY, ${columns})`);
    const insert = db.prepare(`INSERT INTO ot_0 VALUES (?${', ?'.repeat(TYPES.length)})`);
    ROWS.forEach((values, i) =>
      insert.run(i + 1, ...values.map((value, p) => (value === null ? null : toSqlValue(value, TYPES[p])))),
    );
  });

  afterAll(() => db.close());

  it.each([[undefined], [['p1', 'p5']], [['p2', 'p3', 'p4']], [['missing']]])(
    'decides on the display name of a scored row exactly as on the instance it becomes (properties %j)',
    (properties?: string[]) => {
      for (const query of QUERIES) {
        const shortlist = new Shortlist(table, { first: 2, named: query });
        const probes = db.prepare(`SELECT ${shortlist.probe()} FROM ot_0 t ORDER BY t._rowid`).raw(true).all();
        const rows = db.prepare('SELECT t.* FROM ot_0 t ORDER BY t._rowid').all() as Row[];
        rows.forEach((row, i) => {
          const instance = { ...rowToInstance(table, row, properties), _score: 1 };
          expect({ query, row: i, kept: shortlist.keepsScored(probes[i] as unknown[]) }).toEqual({
            query,
            row: i,
            kept: shortlist.keepsInstance(5, instance),
          });
        });
      }
    },
  );

  it('keeps a row past the first holding the query as a value only when it has no score', () => {
    // Row 2 ('alice') holds 'abc' in p5 and is not named like it.
    const shortlist = new Shortlist(table, { first: 1, named: 'abc' });
    const row = db.prepare('SELECT t.* FROM ot_0 t WHERE _rowid = 2').get() as Row;
    expect(shortlist.keepsInstance(3, rowToInstance(table, row))).toBe(true);
    expect(shortlist.keepsInstance(3, { ...rowToInstance(table, row), _score: 2.5 })).toBe(false);
    // Named like the query, a scored row is kept.
    const named = new Shortlist(table, { first: 1, named: 'Alice' });
    expect(named.keepsInstance(3, { ...rowToInstance(table, row), _score: 2.5 })).toBe(true);
  });

  it('keeps the first rows whatever they hold', () => {
    const shortlist = new Shortlist(table, { first: 2, named: 'nothing like it' });
    const row = db.prepare('SELECT t.* FROM ot_0 t WHERE _rowid = 4').get() as Row;
    expect(shortlist.keepsInstance(1, rowToInstance(table, row))).toBe(true);
    expect(shortlist.keepsInstance(2, rowToInstance(table, row))).toBe(false);
  });
});
