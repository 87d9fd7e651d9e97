import { plainJson } from './plain-json';

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

describe('plainJson', () => {
  class Point {
    constructor(
      readonly x: number,
      readonly hidden?: string,
    ) {}
  }

  it.each([
    ['a plain object', { a: 1, b: 'x', c: [1, 2, { d: true }], e: null }],
    ['undefined, functions and symbols dropped from objects', { a: undefined, f: () => 1, s: Symbol('s'), k: 1 }],
    ['undefined, functions and symbols as null in arrays', [undefined, () => 1, Symbol('s'), 2]],
    ['sparse arrays', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['non-finite numbers', { n: NaN, i: Infinity, m: -Infinity, z: 0 }],
    ['toJSON (a date)', { at: new Date('2026-11-25T00:00:00Z'), nested: { toJSON: () => ({ kind: 'custom' }) } }],
    ['class instances by their fields', { point: new Point(3) }],
    ['boxed primitives', { n: new Number(2), s: new String('x'), b: new Boolean(false) }],
    ['maps and sets as empty objects', { m: new Map([[1, 2]]), s: new Set([1]) }],
    ['integer keys first, then insertion order', { b: 1, 2: 'two', a: 2, 1: 'one' }],
    ['strings and numbers at the root', 'text'],
  ])('is the JSON round trip for %s', (_name, value) => {
    expect(JSON.stringify(plainJson(value))).toBe(JSON.stringify(roundTrip(value)));
    expect(plainJson(value)).toEqual(roundTrip(value));
  });

  it('throws like JSON.stringify on a BigInt and on a cycle', () => {
    expect(() => plainJson({ big: BigInt(1) })).toThrow(TypeError);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => plainJson(cycle)).toThrow(TypeError);
  });

  it('copies: changing the copy leaves the value alone', () => {
    const value = { list: [{ a: 1 }] };
    const copy = plainJson(value) as typeof value;
    copy.list[0].a = 2;
    expect(value.list[0].a).toBe(1);
  });
});
