import { z } from 'zod';
import { AppException } from '../common/errors/app.exception';
import { ErrorDefinition, ValidationErrors } from '../common/errors/error-codes';
import { LocalizedDetails } from '../common/errors/localized-details';
import { requiredText } from '../common/http/required-text';
import { advertisedInput, jsonSchemaOf, parseInput } from './capability-input';

const SCHEMA = z.looseObject({
  query: requiredText(),
  limit: z.number().int().min(1).max(100).default(10),
  name: z.string().min(2).max(5).optional(),
  ids: z.array(z.string()).min(1).max(3).optional(),
  tags: z.set(z.string()).max(1).optional(),
  mode: z.enum(['fast', 'deep']).optional(),
  when: z.iso.datetime().optional(),
  nested: z
    .looseObject({ paths: z.array(z.looseObject({ object_types: z.array(z.looseObject({ id: z.string() })) })) })
    .optional(),
});

/** The exception parseInput throws for `input`, failing the test when it parses. */
function failure(input: Record<string, unknown>, schema: z.ZodType = SCHEMA): AppException {
  let caught: unknown;
  try {
    parseInput(schema, input);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AppException);
  return caught as AppException;
}

/** The definition and the translation key and arguments of a failure. */
function described(input: Record<string, unknown>): [ErrorDefinition, string, Record<string, string | number>] {
  const { definition, details } = failure(input);
  expect(details).toBeInstanceOf(LocalizedDetails);
  const { key, args } = details as LocalizedDetails;
  return [definition, key, args];
}

describe('parseInput', () => {
  it('returns the parsed value: trimmed text, defaults applied, undeclared arguments kept', () => {
    expect(parseInput(SCHEMA, { query: '  糖尿病 ', kn_id: 'clinic' })).toEqual({
      query: '糖尿病',
      limit: 10,
      kn_id: 'clinic',
    });
  });

  describe('Required: "<field> is required"', () => {
    it.each([
      ['a missing', {}],
      ['a null', { query: null }],
      ['an empty', { query: '' }],
      ['a blank', { query: ' \t\n' }],
    ])('for %s required field', (_case, input) => {
      const error = failure(input);
      expect(error.definition).toBe(ValidationErrors.Required);
      expect(error.message).toBe('query is required');
      expect(error.status).toBe(400);
    });

    it('names a nested field by its path, a.b[0].c', () => {
      const error = failure({ query: 'q', nested: { paths: [{ object_types: [{ id: 'ot' }, {}] }] } });
      expect(error.definition).toBe(ValidationErrors.Required);
      expect(error.message).toBe('nested.paths[0].object_types[1].id is required');
    });

    it('calls a null array element missing too', () => {
      expect(failure({ query: 'q', ids: ['a', null] }).message).toBe('ids[1] is required');
    });
  });

  it('maps a wrong type to Type with validation.type, the field and what was expected', () => {
    expect(described({ query: 42 })).toEqual([
      ValidationErrors.Type,
      'validation.type',
      { field: 'query', expected: 'string', received: 'number' },
    ]);
    expect(described({ query: 'q', limit: 1.5 })).toEqual([
      ValidationErrors.Type,
      'validation.type',
      { field: 'limit', expected: 'integer', received: 'number' },
    ]);
    expect(described({ query: 'q', nested: { paths: 'x' } })).toEqual([
      ValidationErrors.Type,
      'validation.type',
      { field: 'nested.paths', expected: 'array', received: 'string' },
    ]);
  });

  it.each([
    ['a number below its minimum', 'validation.min', { limit: 0 }, 'limit', '1'],
    ['a number above its maximum', 'validation.max', { limit: 101 }, 'limit', '100'],
    ['a string shorter than allowed', 'validation.minLength', { name: 'a' }, 'name', '2'],
    ['a string longer than allowed', 'validation.maxLength', { name: 'abcdef' }, 'name', '5'],
    ['an array with too few items', 'validation.arrayMinSize', { ids: [] }, 'ids', '1'],
    ['an array with too many items', 'validation.arrayMaxSize', { ids: ['a', 'b', 'c', 'd'] }, 'ids', '3'],
  ])('maps %s to Range with %s', (_case, key, input, field, limit) => {
    expect(described({ query: 'q', ...input })).toEqual([ValidationErrors.Range, key, { field, limit }]);
  });

  it('maps a set with too many items to Range with validation.arrayMaxSize', () => {
    expect(described({ query: 'q', tags: new Set(['a', 'b']) })).toEqual([
      ValidationErrors.Range,
      'validation.arrayMaxSize',
      { field: 'tags', limit: '1' },
    ]);
  });

  it('maps a value outside an enum to Enum with the options', () => {
    expect(described({ query: 'q', mode: 'slow' })).toEqual([
      ValidationErrors.Enum,
      'validation.enum',
      { field: 'mode', options: 'fast, deep' },
    ]);
  });

  it('maps any other rule to Format with the field and zod’s message', () => {
    expect(described({ query: 'q', when: 'yesterday' })).toEqual([
      ValidationErrors.Format,
      'validation.unknown',
      { field: 'when', message: 'Invalid ISO datetime' },
    ]);
  });

  it('names a problem with the whole input "arguments"', () => {
    const refused = z.looseObject({}).refine(() => false, { message: 'never' });
    expect(failure({}, refused).details).toEqual(
      new LocalizedDetails('validation.unknown', { field: 'arguments', message: 'never' }),
    );
  });

  it('reports only the first problem', () => {
    expect(failure({ limit: 0 }).message).toBe('query is required');
  });
});

describe('jsonSchemaOf', () => {
  const schema = z.looseObject({ query: z.string(), limit: z.number().default(10) });

  it('converts a schema to JSON Schema 2020-12 once per direction: repeated calls give the same object', () => {
    const input = jsonSchemaOf(schema, 'input');
    expect(input.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(jsonSchemaOf(schema, 'input')).toBe(input);
    const output = jsonSchemaOf(schema, 'output');
    expect(jsonSchemaOf(schema, 'output')).toBe(output);
    expect(output).not.toBe(input);
  });

  it('lists a defaulted field as optional on input and as always present on output', () => {
    expect(jsonSchemaOf(schema, 'input').required).toEqual(['query']);
    expect(jsonSchemaOf(schema, 'output').required).toEqual(['query', 'limit']);
  });
});

describe('advertisedInput', () => {
  const input = z.looseObject({ path: z.string() });

  it('advertises an operator tool’s own schema as it is', () => {
    const own = { type: 'object', properties: { namespace: { type: 'string' } } };
    expect(advertisedInput({ input, inputJsonSchema: own })).toBe(own);
  });

  it('else advertises the input schema’s JSON Schema, the same object every door uses', () => {
    expect(advertisedInput({ input })).toBe(jsonSchemaOf(input, 'input'));
    expect(advertisedInput({ input })).toMatchObject({ properties: { path: { type: 'string' } }, required: ['path'] });
  });
});
