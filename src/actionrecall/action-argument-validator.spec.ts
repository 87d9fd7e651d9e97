import { ActionArgumentValidator, MAX_COMPILED_SCHEMAS, MAX_LISTED_VIOLATIONS } from './action-argument-validator';

const PRESCRIPTION = {
  type: 'object',
  properties: {
    patient_id: { type: 'string' },
    days_supply: { type: 'integer', minimum: 1, maximum: 90 },
    route: { type: 'string', enum: ['oral', 'iv'] },
    items: {
      type: 'array',
      items: { type: 'object', properties: { drug_id: { type: 'string' } }, required: ['drug_id'] },
    },
    'a/b': { type: 'number' },
  },
  required: ['patient_id'],
};

describe('ActionArgumentValidator', () => {
  const validator = new ActionArgumentValidator();

  it('accepts valid arguments', () => {
    expect(validator.violations(PRESCRIPTION, { patient_id: 'P1', days_supply: 7, items: [{ drug_id: 'D' }] })).toEqual(
      [],
    );
  });

  it('lists every violation with its field path', () => {
    const violations = validator.violations(PRESCRIPTION, {
      days_supply: 'abc',
      route: 'rectal',
      items: [{ drug_id: 'D' }, {}],
      'a/b': 'x',
    });
    expect(violations.sort()).toEqual(
      [
        'patient_id is required',
        'days_supply must be integer',
        'route must be one of ["oral","iv"]',
        'items[1].drug_id is required',
        'a/b must be number',
      ].sort(),
    );
    expect(validator.violations(PRESCRIPTION, { patient_id: 'P1', days_supply: 500 })).toEqual([
      'days_supply must be <= 90',
    ]);
    expect(validator.violations({ type: 'object', additionalProperties: false }, { x: 1 })).toEqual([
      'x is not allowed',
    ]);
    expect(validator.violations({ type: 'object' }, [])).toEqual(['arguments must be object']);
  });

  it('caps the list of violations', () => {
    const properties = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const args = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, i]));
    const violations = validator.violations({ type: 'object', properties }, args);
    expect(violations).toHaveLength(MAX_LISTED_VIOLATIONS + 1);
    expect(violations.at(-1)).toBe('… and 10 more');
  });

  it('keeps tools declaring the same $id apart', () => {
    const a = { $id: 'urn:tool', type: 'object', required: ['a'] };
    const b = { $id: 'urn:tool', type: 'object', required: ['b'] };
    expect(validator.violations(a, {})).toEqual(['a is required']);
    expect(validator.violations(b, {})).toEqual(['b is required']);
  });

  it('throws for a schema ajv cannot compile, and keeps nothing of it', () => {
    const fresh = new ActionArgumentValidator();
    const cache = (fresh as unknown as { ajv: { _cache: Map<unknown, unknown> } }).ajv._cache;
    const before = cache.size;
    expect(() => fresh.violations({ type: 'object', properties: { x: { type: 'no-such-type' } } }, {})).toThrow();
    expect(cache.size).toBe(before);
  });

  it('stays bounded: compiled schemas past the limit are evicted from ajv as well', () => {
    const bounded = new ActionArgumentValidator();
    const internals = bounded as unknown as { compiled: { size: number }; ajv: { _cache: Map<unknown, unknown> } };
    const metaSchemas = internals.ajv._cache.size;
    for (let i = 0; i < MAX_COMPILED_SCHEMAS + 50; i++) bounded.violations({ type: 'object', required: [`p${i}`] }, {});
    expect(internals.compiled.size).toBe(MAX_COMPILED_SCHEMAS);
    expect(internals.ajv._cache.size).toBe(metaSchemas + MAX_COMPILED_SCHEMAS);
  });
});
