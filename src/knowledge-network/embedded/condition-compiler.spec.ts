import fc from 'fast-check';
import { AppException } from '../../common/errors/app.exception';
import { KnCondition, ObjectType } from '../knowledge-network.types';
import { ConditionCompiler, ConditionContext } from './condition-compiler';
import { InstanceQueryRunner } from './instance-query-runner';
import { NetworkIndex } from './network-index';
import { ObjectTable } from './object-table';
import { operationsForType } from './property-types';

const property = (name: string, type: string) => ({
  name,
  type,
  condition_operations: operationsForType(type, false),
});
const PERSON: ObjectType = {
  id: 'person',
  name: 'Person',
  data_properties: [
    property('id', 'string'),
    property('name', 'string'),
    property('age', 'integer'),
    property('active', 'boolean'),
    property('bio', 'text'),
    property('born', 'date'),
  ],
  logic_properties: [],
  primary_keys: ['id'],
  display_key: 'name',
};
const ROWS = [
  { id: 'a', name: 'Alice', age: 30, active: true, bio: '喜欢 数据库 和 索引', born: '1994-01-01' },
  { id: 'b', name: 'Bob_1', age: 45, active: false, bio: 'Enjoys hiking', born: '1979-05-02' },
  { id: 'c', name: 'Chen', age: null, active: true, bio: '数据库 管理员', born: null },
];

function buildIndex(cacheSize = 0): {
  index: NetworkIndex;
  table: ObjectTable;
  runner: InstanceQueryRunner;
} {
  const index = new NetworkIndex();
  index.addObjectTypes({
    folder: 'x',
    schema: {
      network: { id: 'n', name: 'n', tags: [], origin: { file: 'n', line: 1 } },
      objectTypes: [{ type: PERSON, origin: { file: 'p', line: 1 } }],
      relationTypes: [],
      actionTypes: [],
      conceptGroups: [],
      metricTypes: [],
    },
    instances: new Map([['person', { rows: ROWS }]]),
    views: new Map(),
    warnings: [],
    missingColumns: [],
  });
  return {
    index,
    table: index.table('person')!,
    runner: new InstanceQueryRunner(index, cacheSize),
  };
}

describe('InstanceQueryRunner result cache', () => {
  it('answers a repeated scored query without running SQL again, with the same rows', () => {
    const { index, table, runner } = buildIndex(10);
    const compiler = new ConditionCompiler();
    const prepare = jest.spyOn(index, 'prepare');
    const search = (): unknown[] =>
      runner.instances(table, compiler.compile({ operation: 'match', field: '*', value: '数据库' }, table, runner), 10);
    const first = search();
    const preparedOnce = prepare.mock.calls.length;
    const second = search();
    expect(second).toEqual(first);
    expect(first.map((row) => (row as { id: string }).id).sort()).toEqual(['a', 'c']);
    expect(prepare.mock.calls.length).toBe(preparedOnce);
    index.close();
  });

  it('runs every query when the cache is off', () => {
    const { index, table, runner } = buildIndex(0);
    const compiler = new ConditionCompiler();
    const prepare = jest.spyOn(index, 'prepare');
    const condition = { operation: 'match', field: '*', value: '数据库' };
    runner.instances(table, compiler.compile(condition, table, runner), 10);
    const afterFirst = prepare.mock.calls.length;
    runner.instances(table, compiler.compile(condition, table, runner), 10);
    expect(prepare.mock.calls.length).toBeGreaterThan(afterFirst);
    index.close();
  });
});

describe('ConditionCompiler', () => {
  const compiler = new ConditionCompiler();
  const { index, table, runner } = buildIndex();
  const ids = (condition: unknown): string[] =>
    runner.instances(table, compiler.compile(condition, table, runner), 100).map((row) => String(row.id));
  const error = (condition: unknown): AppException => {
    try {
      compiler.compile(condition, table, runner);
    } catch (caught) {
      return caught as AppException;
    }
    throw new Error('expected a failure');
  };

  afterAll(() => index.close());

  it.each<[KnCondition, string[]]>([
    [{ operation: '==', field: 'name', value: 'Alice' }, ['a']],
    [{ operation: '!=', field: 'age', value: 30 }, ['b', 'c']],
    [{ operation: '>', field: 'age', value: 30 }, ['b']],
    [{ operation: '>=', field: 'age', value: '30' }, ['a', 'b']],
    [{ operation: '<', field: 'born', value: '1990-01-01' }, ['b']],
    [{ operation: '<=', field: 'age', value: 30 }, ['a']],
    [{ operation: 'in', field: 'id', value: ['a', 'c', 'z'] }, ['a', 'c']],
    [{ operation: 'not_in', field: 'id', value: ['a'] }, ['b', 'c']],
    [{ operation: 'like', field: 'name', value: 'b_1' }, ['b']],
    [{ operation: 'like', field: 'name', value: 'A%' }, ['a']],
    [{ operation: 'not_like', field: 'bio', value: '数据库' }, ['b']],
    [{ operation: 'range', field: 'age', value: [40, 50] }, ['b']],
    [{ operation: 'exist', field: 'age' }, ['a', 'b']],
    [{ operation: 'not_exist', field: 'born' }, ['c']],
    [{ operation: '==', field: 'active', value: true }, ['a', 'c']],
    [{ operation: 'match', field: 'bio', value: '数据库管理员' }, ['c']],
    [{ operation: 'match', field: '*', value: '数据库' }, ['a', 'c']],
    [
      {
        operation: 'and',
        sub_conditions: [
          { operation: '==', field: 'active', value: true },
          {
            operation: 'or',
            sub_conditions: [
              { operation: 'exist', field: 'age' },
              { operation: '==', field: 'id', value: 'c' },
            ],
          },
        ],
      },
      ['a', 'c'],
    ],
    [{ operation: 'or', sub_conditions: [] }, []],
    [{ operation: 'and', sub_conditions: [] }, ['a', 'b', 'c']],
  ])('%j selects %j', (condition, expected) => {
    expect(ids(condition).sort()).toEqual(expected);
  });

  it('scores match hits and orders them by relevance', () => {
    const rows = runner.instances(
      table,
      compiler.compile({ operation: 'match', field: '*', value: '数据库' }, table, runner),
      10,
    );
    expect(rows.map((row) => row.id)).toEqual(['c', 'a']);
    expect(rows[0]._score).toBeGreaterThan(rows[1]._score!);
  });

  it('names an unknown field and lists the properties', () => {
    const failure = error({ operation: '==', field: 'salary', value: 1 });
    expect(failure.definition.code).toBe('agentRetrieval.BadRequest.UnknownConditionField');
    expect(failure.message).toContain('"salary"');
    expect(failure.message).toContain('id, name, age');
  });

  it('rejects operations the property type cannot take, and malformed trees', () => {
    expect(error({ operation: 'like', field: 'age', value: '3' }).definition.code).toBe(
      'agentRetrieval.BadRequest.UnsupportedConditionOperation',
    );
    expect(error({ operation: 'knn', field: 'bio', value: 'x' }).definition.code).toBe(
      'agentRetrieval.BadRequest.KnnUnavailable',
    );
    expect(error({ operation: 'drop', field: 'age' }).message).toContain('condition.operation');
    expect(error({ operation: '>', field: 'age', value: 'old' }).message).toContain('"old" is not a number');
    expect(error({ operation: 'range', field: 'age', value: [1] }).message).toContain('range needs [from, to]');
    expect(error({ operation: 'in', field: 'age', value: 3 }).message).toContain('must be an array');
    expect(
      error({
        operation: 'and',
        sub_conditions: [{ operation: '==', field: 'id', value: { $ne: 1 } }],
      }).message,
    ).toContain('condition.sub_conditions[0].value');
  });

  it('keeps hostile values out of the SQL text and matches nothing with them', () => {
    const hostile = "x' OR 1=1 --";
    for (const operation of ['==', 'like', 'match'] as const) {
      const compiled = compiler.compile({ operation, field: 'name', value: hostile }, table, runner);
      expect(compiled.where).not.toContain('1=1');
      // match searches the words ("x", "or", "1"), so Bob_1 is a legitimate keyword hit, not an injection.
      if (operation !== 'match') expect(ids({ operation, field: 'name', value: hostile })).toEqual([]);
    }
    expect(ids({ operation: 'match', field: 'bio', value: hostile })).toEqual([]);
    expect(ids({ operation: 'in', field: 'name', value: [hostile, "'); DROP TABLE ot_0; --"] })).toEqual([]);
    expect(ids({ operation: 'exist', field: 'id' })).toHaveLength(3);
  });

  it('never lets an arbitrary string value change the SQL text', () => {
    const context: ConditionContext = {
      matchExpression: (_t, _c, text) => `"${text.replace(/"/g, '""')}"`,
    };
    const shapes = (value: string): KnCondition[] => [
      { operation: '==', field: 'name', value },
      { operation: 'not_like', field: 'bio', value },
      { operation: 'in', field: 'name', value: [value, value] },
      { operation: 'range', field: 'born', value: [value, value] },
      { operation: 'match', field: 'bio', value: `${value}x` },
    ];
    const sqlOf = (condition: KnCondition): string => {
      const compiled = compiler.compile(condition, table, context);
      return [compiled.where, ...compiled.sets.map((set) => set.sql)].join(' | ');
    };
    const reference = shapes('plain').map(sqlOf);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(shapes(value).map(sqlOf)).toEqual(reference);
      }),
      { numRuns: 300 },
    );
  });
});
