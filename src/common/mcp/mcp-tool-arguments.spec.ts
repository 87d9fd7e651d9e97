import { z } from 'zod';
import { AppException } from '../errors/app.exception';
import { ValidationErrors } from '../errors/error-codes';
import { parseArguments, toolOutput, toolParameters, toolResponseFormat } from './mcp-tool-arguments';

const SCHEMA = z.looseObject({
  query: z.string(),
  limit: z.number().int().min(1).max(10000).default(10),
  mode: z.enum(['a', 'b']).optional(),
  nested: z.looseObject({ id: z.string() }).optional(),
});

function failure(args: Record<string, unknown>): AppException {
  try {
    parseArguments(SCHEMA, args);
  } catch (error) {
    return error as AppException;
  }
  throw new Error('expected a validation failure');
}

describe('parseArguments', () => {
  it('applies defaults and keeps undeclared arguments', () => {
    expect(parseArguments(SCHEMA, { query: 'x', kn_id: 'k' })).toEqual({ query: 'x', limit: 10, kn_id: 'k' });
  });

  it('names a missing argument with "<field> is required"', () => {
    const error = failure({});
    expect(error.definition).toBe(ValidationErrors.Required);
    expect(error.details).toBe('query is required');
    expect(failure({ query: 'x', nested: {} }).details).toBe('nested.id is required');
  });

  it('maps ranges, enums and types to their codes with the field path', () => {
    expect(failure({ query: 'x', limit: 0 }).definition).toBe(ValidationErrors.Range);
    expect(failure({ query: 'x', limit: 0 }).details).toMatch(/^limit: /);
    expect(failure({ query: 'x', mode: 'c' }).definition).toBe(ValidationErrors.Enum);
    expect(failure({ query: 42 }).definition).toBe(ValidationErrors.Type);
  });
});

describe('toolParameters', () => {
  const parameters = toolParameters(SCHEMA) as unknown as {
    '~standard': {
      validate(value: unknown): { value: unknown };
      jsonSchema: { input(options: object): { required?: string[]; properties: Record<string, unknown> } };
    };
  };

  it('advertises the strict JSON Schema (required fields, ranges, defaults)', () => {
    const schema = parameters['~standard'].jsonSchema.input({});
    expect(schema.required).toEqual(['query']);
    expect(schema.properties.limit).toMatchObject({ minimum: 1, maximum: 10000, default: 10 });
  });

  it('lets every call through unchanged so the tool answers in the documented error body', () => {
    expect(parameters['~standard'].validate({ limit: -1, extra: true })).toEqual({ value: { limit: -1, extra: true } });
    expect(parameters['~standard'].validate('not an object')).toEqual({ value: {} });
  });

  it('converts the schema once however often tools/list asks', () => {
    expect(parameters['~standard'].jsonSchema.input({})).toBe(parameters['~standard'].jsonSchema.input({}));
  });
});

describe('toolOutput', () => {
  const output = toolOutput(z.looseObject({ datas: z.array(z.looseObject({})) })) as unknown as {
    '~standard': {
      validate(value: unknown): { value?: unknown; issues?: unknown[] };
      jsonSchema: { output(options: object): { required?: string[] } };
    };
  };

  it('advertises the output JSON Schema, converted once', () => {
    const schema = output['~standard'].jsonSchema.output({});
    expect(schema.required).toEqual(['datas']);
    expect(output['~standard'].jsonSchema.output({})).toBe(schema);
  });

  it('validates with the Zod schema', () => {
    expect(output['~standard'].validate({ datas: [] }).issues).toBeUndefined();
    expect(output['~standard'].validate({ datas: 'x' }).issues).toHaveLength(1);
  });
});

describe('toolResponseFormat', () => {
  it('defaults to toon for MCP and rejects anything but json/toon', () => {
    expect(toolResponseFormat(undefined)).toBe('toon');
    expect(toolResponseFormat('json')).toBe('json');
    expect(() => toolResponseFormat('xml')).toThrow(AppException);
  });
});
