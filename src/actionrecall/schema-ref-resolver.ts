import { isPlainObject, JsonSchema, SchemaConversionError } from './json-schema';

/** Followed `$ref`s allowed on one path before the target is pruned (seed 000 §5.3). */
export const MAX_SCHEMA_DEPTH = 3;

/** Structural nesting guard, so a hostile, deeply nested schema fails cleanly instead of blowing the stack. */
export const MAX_SCHEMA_NESTING = 128;

/** Finds the schema a `$ref` points at; throws a SchemaConversionError for unknown or unsupported refs. */
export type RefLookup = (ref: string) => unknown;

/** Keywords whose value is one schema, a list of schemas, or a map of names to schemas (2020-12 and draft-07). */
export const SCHEMA_KEYS: ReadonlySet<string> = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
export const SCHEMA_LIST_KEYS: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
export const SCHEMA_MAP_KEYS: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'dependentSchemas']);
// Definitions are inlined where they are used, so the containers themselves are dropped.
const DEFINITION_KEYS = new Set(['$defs', 'definitions']);

interface Walk {
  readonly lookup: RefLookup;
  readonly maxDepth: number;
  /** Refs being expanded on the current path: a repeat is a cycle. */
  readonly path: Set<string>;
}

/**
 * Inlines every `$ref` the lookup can resolve. Depth grows only when a ref is followed; a ref that is
 * already on the current path (a cycle) or past `maxDepth` is replaced by its pruned target. The input is
 * never mutated and the result holds no `$ref`.
 */
export function resolveSchemaRefs(schema: unknown, lookup: RefLookup, maxDepth = MAX_SCHEMA_DEPTH): unknown {
  return resolveNode(schema, { lookup, maxDepth, path: new Set() }, 0, 0);
}

function resolveNode(node: unknown, walk: Walk, depth: number, nesting: number): unknown {
  if (nesting > MAX_SCHEMA_NESTING) {
    throw new SchemaConversionError(`schema nests deeper than ${MAX_SCHEMA_NESTING} levels`);
  }
  if (!isPlainObject(node)) return node;
  if (typeof node.$ref === 'string') return resolveRef(node, node.$ref, walk, depth, nesting);
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (DEFINITION_KEYS.has(key)) continue;
    entries.push([key, resolveKeyword(key, value, walk, depth, nesting + 1)]);
  }
  return Object.fromEntries(entries);
}

function resolveKeyword(key: string, value: unknown, walk: Walk, depth: number, nesting: number): unknown {
  if (SCHEMA_MAP_KEYS.has(key) && isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([name, child]) => [name, resolveNode(child, walk, depth, nesting + 1)]),
    );
  }
  if ((SCHEMA_LIST_KEYS.has(key) || key === 'items') && Array.isArray(value)) {
    return value.map((child) => resolveNode(child, walk, depth, nesting + 1));
  }
  if (SCHEMA_KEYS.has(key)) return resolveNode(value, walk, depth, nesting);
  return value;
}

function resolveRef(node: JsonSchema, ref: string, walk: Walk, depth: number, nesting: number): unknown {
  const target = walk.lookup(ref);
  let resolved: unknown;
  if (walk.path.has(ref) || depth >= walk.maxDepth) {
    resolved = pruneSchema(target);
  } else {
    walk.path.add(ref);
    try {
      resolved = resolveNode(target, walk, depth + 1, nesting + 1);
    } finally {
      walk.path.delete(ref);
    }
  }
  // A description written beside the $ref describes this use of the type, so it wins over the target's.
  const localDescription = node.description;
  if (isPlainObject(resolved) && typeof localDescription === 'string' && localDescription !== '') {
    return { ...resolved, description: localDescription };
  }
  return resolved;
}

/**
 * What is left of a schema where recursion stops: `type` (default `object`), a non-empty `description`
 * and, for arrays, the pruned `items`. Properties and every other keyword are dropped.
 */
export function pruneSchema(schema: unknown, nesting = 0): JsonSchema {
  if (nesting > MAX_SCHEMA_NESTING) {
    throw new SchemaConversionError(`schema nests deeper than ${MAX_SCHEMA_NESTING} levels`);
  }
  const source = isPlainObject(schema) ? schema : {};
  const pruned: JsonSchema = { type: source.type ?? 'object' };
  if (typeof source.description === 'string' && source.description !== '') pruned.description = source.description;
  if (pruned.type === 'array' && isPlainObject(source.items)) pruned.items = pruneSchema(source.items, nesting + 1);
  return pruned;
}
