import { AppException } from '../errors/app.exception';
import { LocalizedDetails } from '../errors/localized-details';
import { formatJsonPath, inspectJson, jsonProblemDetails, jsonProblemException } from './json-inspection';

const BOUNDS = { depth: 64, items: 10000 };

const nested = (levels: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

describe('inspectJson', () => {
  it('accepts a value exactly at the depth limit and refuses one level more, naming where', () => {
    expect(inspectJson({ query: nested(63) }, BOUNDS)).toBeUndefined();
    expect(inspectJson({ query: nested(64) }, BOUNDS)).toEqual({
      kind: 'depth',
      path: ['query', ...Array(63).fill(0)],
    });
  });

  it('walks 100,000 levels without recursion', () => {
    const deep = JSON.parse(`{"a":${'['.repeat(100000)}${']'.repeat(100000)}}`) as unknown;
    expect(inspectJson(deep, BOUNDS)?.kind).toBe('depth');
  });

  it('finds unpaired surrogates in values and in keys, but accepts real pairs', () => {
    expect(inspectJson({ ok: '😀 糖尿病', list: ['a'] }, BOUNDS)).toBeUndefined();
    expect(inspectJson({ ids: [{ patient_id: '\udfff' }] }, BOUNDS)).toEqual({
      kind: 'unicode',
      path: ['ids', 0, 'patient_id'],
    });
    expect(inspectJson({ ['k\ud800']: 1 }, BOUNDS)).toEqual({ kind: 'unicode', path: ['k\ud800'] });
    expect(inspectJson('\ud800x', BOUNDS)).toEqual({ kind: 'unicode', path: [] });
  });

  it('ignores scalars, accepts an array at the item bound and refuses a longer one before looking inside', () => {
    expect(inspectJson(null, { depth: 1, items: 1 })).toBeUndefined();
    expect(inspectJson({ list: Array(10000).fill({ i: 1 }) }, BOUNDS)).toBeUndefined();
    expect(inspectJson({ a: { list: Array(1000000).fill('\udfff') } }, BOUNDS)).toEqual({
      kind: 'items',
      path: ['a', 'list'],
    });
  });
});

describe('reporting a problem', () => {
  it('formats paths printably and bounded', () => {
    expect(formatJsonPath(['a', 0, 'b'])).toBe('a[0].b');
    expect(formatJsonPath([])).toBe('request body');
    expect(formatJsonPath(['k\ud800'])).toBe('k\ufffd');
    expect(formatJsonPath(Array(500).fill('x')).length).toBeLessThanOrEqual(201);
  });

  it('names the top-level field for depth and the exact place for bad text', () => {
    const depth = jsonProblemException({ kind: 'depth', path: ['condition', 'sub_conditions', 0] }, BOUNDS);
    expect(depth).toBeInstanceOf(AppException);
    expect(depth.definition.code).toBe('agentRetrieval.BadRequest.LimitExceeded');
    expect(depth.details).toEqual(new LocalizedDetails('validation.depth', { field: 'condition', limit: 64 }));
    const items = jsonProblemException({ kind: 'items', path: ['condition', 'value'] }, BOUNDS);
    expect(items.details).toEqual(
      new LocalizedDetails('validation.arrayMaxSize', { field: 'condition.value', limit: 10000 }),
    );
    const unicode = jsonProblemException({ kind: 'unicode', path: ['path', 'dept_id'] }, BOUNDS);
    expect(unicode.definition.code).toBe('agentRetrieval.BadRequest.InvalidUnicode');
    expect(unicode.details).toEqual(new LocalizedDetails('validation.unicode', { field: 'path.dept_id' }));
    expect(jsonProblemDetails({ kind: 'depth', path: ['params', 'x'] }, { depth: 66, items: 5 })).toEqual(
      new LocalizedDetails('validation.depth', { field: 'params', limit: 66 }),
    );
    expect(jsonProblemDetails({ kind: 'items', path: ['params', 'x'] }, { depth: 66, items: 5 })).toEqual(
      new LocalizedDetails('validation.arrayMaxSize', { field: 'params.x', limit: 5 }),
    );
  });
});
