import type { StandardSchemaV1 } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { AppException } from '../errors/app.exception';
import { ValidationErrors } from '../errors/error-codes';
import { isRecord } from '../http/json-inspection';
import { REQUIRED_TEXT_RULE, requiredMessage } from '../http/required-text';
import { parseResponseFormat, ResponseFormat } from '../response-format/response-format';

/** Every tool accepts kn_id; it overrides the X-Kn-ID header for this one call (SPEC §3). */
export const KN_ID_ARGUMENT = z
  .string()
  .optional()
  .describe(
    'Knowledge network id. Usually omitted: the connection sends it as the X-Kn-ID header. ' +
      'Pass it only to query a different network for this one call.',
  );

export const RESPONSE_FORMAT_ARGUMENT = z
  .enum(['json', 'toon'])
  .default('toon')
  .describe('Text rendering of the result: toon (compact, default) or json. structuredContent is always JSON.');

const JSON_SCHEMA_TARGET = 'draft-2020-12';

/**
 * The `parameters` given to `@Tool`: advertises the full JSON Schema (required fields, ranges,
 * defaults) but lets every call through to the handler, which validates with the same Zod schema
 * and answers in the documented error body (e.g. `query is required`) instead of mcp-nest's
 * generic "Invalid parameters" text. Undeclared arguments are never stripped here.
 */
export function toolParameters(schema: z.ZodType): StandardSchemaV1 {
  return standardSchema(schema, (value) => ({ value: isRecord(value) ? value : {} }));
}

/** The `outputSchema` given to `@Tool`: the Zod schema's own validation, its JSON Schema converted once. */
export function toolOutput(schema: z.ZodType): StandardSchemaV1 {
  return standardSchema(schema, (value) => schema['~standard'].validate(value));
}

/**
 * mcp-nest rebuilds the server for every stateless request and converts a bare Zod schema on every
 * `tools/list` (over half of that call's CPU); behind this wrapper each schema is converted once and
 * the SDK only serialises the object it is given.
 */
function standardSchema(schema: z.ZodType, validate: StandardSchemaV1['~standard']['validate']): StandardSchemaV1 {
  const converted = new Map<'input' | 'output', Record<string, unknown>>();
  const jsonSchema = (io: 'input' | 'output') => {
    let result = converted.get(io);
    if (!result) {
      result = z.toJSONSchema(schema, { target: JSON_SCHEMA_TARGET, io }) as Record<string, unknown>;
      converted.set(io, result);
    }
    return result;
  };
  const standard = {
    version: 1 as const,
    vendor: 'agent-retrieval',
    validate,
    jsonSchema: { input: () => jsonSchema('input'), output: () => jsonSchema('output') },
  };
  return { '~standard': standard } as StandardSchemaV1;
}

/** Validates tool arguments; the first problem becomes a 400 error naming the argument. */
export function parseArguments<T>(schema: z.ZodType<T>, args: Record<string, unknown>): T {
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.map(String).join('.') || 'arguments';
  const blank = issue.code === 'custom' && issue.params?.rule === REQUIRED_TEXT_RULE;
  const absent = issue.code === 'invalid_type' && (valueAt(args, issue.path) ?? null) === null;
  if (blank || absent) {
    throw new AppException(ValidationErrors.Required, requiredMessage(field));
  }
  const definition =
    issue.code === 'too_small' || issue.code === 'too_big'
      ? ValidationErrors.Range
      : issue.code === 'invalid_value'
        ? ValidationErrors.Enum
        : issue.code === 'invalid_type'
          ? ValidationErrors.Type
          : ValidationErrors.Format;
  throw new AppException(definition, `${field}: ${issue.message}`);
}

/** MCP default is TOON for the text block (SPEC §3); anything but json/toon is a 400. */
export function toolResponseFormat(value: unknown): ResponseFormat {
  return value === undefined ? 'toon' : parseResponseFormat(value);
}

function valueAt(args: Record<string, unknown>, path: readonly PropertyKey[]): unknown {
  let current: unknown = args;
  for (const key of path) {
    if (!isRecord(current) && !Array.isArray(current)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
