import { z } from 'zod';
import { AppException } from '../common/errors/app.exception';
import { ErrorDefinition, ValidationErrors } from '../common/errors/error-codes';
import { LocalizedDetails } from '../common/errors/localized-details';
import { isRecord } from '../common/http/json-inspection';
import { REQUIRED_TEXT_RULE, requiredDetails } from '../common/http/required-text';

type Issue = z.core.$ZodIssue;

/**
 * The one validation path of every door (SPEC §12): the capability's zod schema, its first problem as the
 * documented 400 naming the JSON field — `query is required` for a missing or blank required field, else
 * the translated rule (type, range, enum, format).
 */
export function parseInput<T>(schema: z.ZodType<T>, input: Record<string, unknown>): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationFailure(result.error.issues[0], input);
}

/** The AppException for one zod issue of `input`. */
export function validationFailure(issue: Issue, input: unknown): AppException {
  const field = fieldPath(issue.path);
  const blank = issue.code === 'custom' && issue.params?.rule === REQUIRED_TEXT_RULE;
  const absent = issue.code === 'invalid_type' && (valueAt(input, issue.path) ?? null) === null;
  if (blank || absent) return new AppException(ValidationErrors.Required, requiredDetails(field));
  const [definition, details] = describe(issue, field, valueAt(input, issue.path));
  return new AppException(definition, details);
}

function describe(issue: Issue, field: string, value: unknown): [ErrorDefinition, LocalizedDetails] {
  switch (issue.code) {
    case 'invalid_type':
      // A type issue says the type wanted and the type sent, never the range the field also has.
      return [
        ValidationErrors.Type,
        new LocalizedDetails('validation.type', {
          field,
          expected: typeName(issue.expected),
          received: jsonTypeOf(value),
        }),
      ];
    case 'unrecognized_keys': {
      const keys = issue.keys.map((key) => key.slice(0, 64)).join(', ');
      return [ValidationErrors.Format, new LocalizedDetails('validation.unknownKeys', { field, keys })];
    }
    case 'too_small':
    case 'too_big': {
      const limit = String(issue.code === 'too_small' ? issue.minimum : issue.maximum);
      const key = RANGE_KEYS[issue.origin]?.[issue.code] ?? (issue.code === 'too_small' ? 'min' : 'max');
      return [ValidationErrors.Range, new LocalizedDetails(`validation.${key}`, { field, limit })];
    }
    case 'invalid_value': {
      const options = issue.values.map((value) => String(value)).join(', ');
      return [ValidationErrors.Enum, new LocalizedDetails('validation.enum', { field, options })];
    }
    default:
      return [ValidationErrors.Format, new LocalizedDetails('validation.unknown', { field, message: issue.message })];
  }
}

const RANGE_KEYS: Record<string, Record<'too_small' | 'too_big', string>> = {
  number: { too_small: 'min', too_big: 'max' },
  int: { too_small: 'min', too_big: 'max' },
  bigint: { too_small: 'min', too_big: 'max' },
  string: { too_small: 'minLength', too_big: 'maxLength' },
  array: { too_small: 'arrayMinSize', too_big: 'arrayMaxSize' },
  set: { too_small: 'arrayMinSize', too_big: 'arrayMaxSize' },
};

// zod says `int` for a number with a fraction.
const typeName = (expected: string): string => (expected === 'int' ? 'integer' : expected);

/** The JSON type of a value, as zod names expected types. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** `relation_type_paths[0].object_types[1].id`, the way the REST door has always named fields. */
function fieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text ? `.${String(key)}` : String(key);
  }
  return text || 'arguments';
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (!isRecord(current) && !Array.isArray(current)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const JSON_SCHEMA_TARGET = 'draft-2020-12';
const converted = new WeakMap<z.ZodType, Record<'input' | 'output', Record<string, unknown> | undefined>>();

/**
 * A schema as JSON Schema (2020-12), converted once per schema and direction: what MCP advertises, what
 * chat offers the model and what OpenAPI documents are the same object.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  let entry = converted.get(schema);
  if (!entry) {
    entry = { input: undefined, output: undefined };
    converted.set(schema, entry);
  }
  entry[io] ??= z.toJSONSchema(schema, { target: JSON_SCHEMA_TARGET, io }) as Record<string, unknown>;
  return entry[io];
}

/** The input JSON Schema every door advertises for a capability. */
export function advertisedInput(definition: { input: z.ZodType; inputJsonSchema?: Record<string, unknown> }) {
  return definition.inputJsonSchema ?? jsonSchemaOf(definition.input, 'input');
}
