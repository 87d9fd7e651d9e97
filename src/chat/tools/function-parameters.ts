import { isPlainObject, JsonSchema, quote, SchemaConversionError } from '../../actionrecall/json-schema';
import { convertMcpSchemaToFunctionCall } from '../../actionrecall/schema-converter';
import { SCHEMA_KEYS, SCHEMA_LIST_KEYS, SCHEMA_MAP_KEYS } from '../../actionrecall/schema-ref-resolver';

/** Keywords that only name or annotate a schema document: nothing for the model, and some endpoints refuse them. */
const META_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$comment',
  '$vocabulary',
]);

/** OpenAI: "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level". */
const ROOT_UNIONS = ['allOf', 'anyOf', 'oneOf'];
const ROOT_REFUSED = [...ROOT_UNIONS, 'enum', 'const', 'not'];

/** What a tool whose input schema cannot be converted is offered with: any object, checked by its own server. */
export const FALLBACK_PARAMETERS: Readonly<JsonSchema> = Object.freeze({
  type: 'object',
  properties: {},
  additionalProperties: true,
});

export interface FunctionParameters {
  parameters: JsonSchema;
  /** The `$ref`s that could not be resolved (each became an untyped schema that says so). */
  unresolved: string[];
}

/**
 * A tool's input JSON Schema as OpenAI function-call `parameters`: references inlined and cycles cut by
 * the seed 000 converter, a reference that cannot be resolved replaced by "any value" (noted in its
 * description), annotation keywords dropped, an array without `items` given `{}`, and a union at the root
 * folded into one object. Throws a SchemaConversionError when there is no object schema to offer.
 */
export function functionParameters(schema: unknown): FunctionParameters {
  const unresolved = new Set<string>();
  const converted = convertMcpSchemaToFunctionCall(schema, {
    unresolved: (ref) => {
      unresolved.add(ref);
      return { description: `Unresolved schema reference ${quote(ref)}: any JSON value.` };
    },
  });
  const type = converted.type;
  if (type !== 'object' && !(Array.isArray(type) && type.includes('object'))) {
    throw new SchemaConversionError(`parameters must be an object schema, not type ${quote(type)}`);
  }
  const parameters = foldRootUnions({ ...cleaned(converted), type: 'object' });
  return { parameters, unresolved: [...unresolved] };
}

function cleaned(node: unknown): JsonSchema {
  if (!isPlainObject(node)) return node as JsonSchema;
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (META_KEYWORDS.has(key)) continue;
    entries.push([key, cleanedKeyword(key, value)]);
  }
  const schema = Object.fromEntries(entries);
  const arrayType = schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
  // Azure OpenAI refuses "array schema missing items"; an empty schema says what a missing one means.
  if (arrayType && !('items' in schema)) schema.items = {};
  return schema;
}

function cleanedKeyword(key: string, value: unknown): unknown {
  if (SCHEMA_MAP_KEYS.has(key) && isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, cleaned(child)]));
  }
  if ((SCHEMA_LIST_KEYS.has(key) || key === 'items') && Array.isArray(value)) return value.map(cleaned);
  return SCHEMA_KEYS.has(key) ? cleaned(value) : value;
}

/**
 * A union at the root becomes one object with every variant's properties (the root's own win); only the
 * root's `required` stays, since each variant requires different fields. `enum`, `const` and `not` go.
 */
function foldRootUnions(root: JsonSchema): JsonSchema {
  if (!ROOT_REFUSED.some((key) => key in root)) return root;
  // Entries, not assignments: a property named `__proto__` must stay a property.
  const entries: [string, unknown][] = isPlainObject(root.properties) ? Object.entries(root.properties) : [];
  const named = new Set(entries.map(([name]) => name));
  for (const key of ROOT_UNIONS) {
    for (const variant of Array.isArray(root[key]) ? (root[key] as unknown[]) : []) {
      if (!isPlainObject(variant) || !isPlainObject(variant.properties)) continue;
      for (const [name, property] of Object.entries(variant.properties)) {
        if (!named.has(name)) entries.push([name, property]);
        named.add(name);
      }
    }
  }
  const kept = Object.entries(root).filter(([key]) => !ROOT_REFUSED.includes(key) && key !== 'properties');
  return Object.fromEntries([...kept, ['properties', Object.fromEntries(entries)]]);
}
