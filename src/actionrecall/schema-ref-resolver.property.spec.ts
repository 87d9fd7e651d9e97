import fc from 'fast-check';
import { isPlainObject, SchemaConversionError } from './json-schema';
import { convertMcpSchemaToFunctionCall } from './schema-converter';
import { mcpRefLookup } from './schema-ref-lookups';
import { MAX_SCHEMA_DEPTH, resolveSchemaRefs } from './schema-ref-resolver';

const DEF_NAMES = ['A', 'B', 'C', 'D'] as const;
const RUNS = { numRuns: 1500 };

/** Random schema trees whose refs point at the four definitions, so cycles of any length are common. */
const schemaTree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom({ type: 'string' }, { type: 'integer', description: 'n' }, true, null),
    fc.constantFrom(...DEF_NAMES).map((name) => ({ $ref: `#/$defs/${name}` })),
    fc.record({ type: fc.constant('array'), items: tie('node') }),
    fc
      .dictionary(fc.constantFrom('p', 'q', 'r', '__proto__'), tie('node'), { maxKeys: 3 })
      .map((properties) => ({ type: 'object', properties })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
  ),
})).node;

/** Each definition is an object tagged with its name, so expansions are visible in the output. */
const definitions = fc
  .tuple(...DEF_NAMES.map(() => schemaTree))
  .map((bodies) =>
    Object.fromEntries(
      DEF_NAMES.map((name, index) => [name, { type: 'object', 'x-def': name, properties: { v: bodies[index] } }]),
    ),
  );

const rootSchema = fc.record({ defs: definitions, root: schemaTree }).map(({ defs, root }) => ({
  $defs: defs,
  type: 'object',
  properties: { root },
}));

function* walk(node: unknown, path: string[] = []): Generator<{ node: unknown; expanded: string[] }> {
  const tag = isPlainObject(node) && typeof node['x-def'] === 'string' ? [...path, node['x-def']] : path;
  yield { node, expanded: tag };
  if (isPlainObject(node) || Array.isArray(node)) {
    for (const child of Object.values(node)) yield* walk(child, tag);
  }
}

describe('schema ref resolver (property-based)', () => {
  it('terminates on random cyclic schemas and leaves no $ref or $defs behind', () => {
    fc.assert(
      fc.property(rootSchema, (schema) => {
        const output = convertMcpSchemaToFunctionCall(schema);
        const text = JSON.stringify(output);
        expect(text).not.toContain('"$ref"');
        expect(text).not.toContain('"$defs"');
      }),
      RUNS,
    );
  });

  it('expands at most three definitions on any path and never the same one twice on a path', () => {
    fc.assert(
      fc.property(rootSchema, (schema) => {
        const output = convertMcpSchemaToFunctionCall(schema);
        for (const { expanded } of walk(output)) {
          expect(expanded.length).toBeLessThanOrEqual(MAX_SCHEMA_DEPTH);
          expect(new Set(expanded).size).toBe(expanded.length);
        }
      }),
      RUNS,
    );
  });

  it('is idempotent: converting a converted schema changes nothing', () => {
    fc.assert(
      fc.property(rootSchema, (schema) => {
        const once = convertMcpSchemaToFunctionCall(schema);
        expect(convertMcpSchemaToFunctionCall(once)).toEqual(once);
      }),
      RUNS,
    );
  });

  it('never mutates its input', () => {
    fc.assert(
      fc.property(rootSchema, (schema) => {
        const before = JSON.stringify(schema);
        resolveSchemaRefs(schema, mcpRefLookup(schema));
        expect(JSON.stringify(schema)).toBe(before);
      }),
      RUNS,
    );
  });

  it('reports a missing definition as a conversion error, never anything else', () => {
    fc.assert(
      fc.property(rootSchema, fc.constantFrom('E', 'Z', '', 'A/B'), (schema, missing) => {
        const broken = { ...schema, properties: { ...schema.properties, bad: { $ref: `#/$defs/${missing}` } } };
        expect(() => convertMcpSchemaToFunctionCall(broken)).toThrow(SchemaConversionError);
      }),
      RUNS,
    );
  });
});
