import { SchemaConversionError } from './json-schema';
import { convertMcpSchemaToFunctionCall } from './schema-converter';
import { MAX_SCHEMA_NESTING, pruneSchema } from './schema-ref-resolver';

describe('convertMcpSchemaToFunctionCall', () => {
  it('produces exactly the seed Node/child output for a self-referencing $defs entry', () => {
    const input = {
      $defs: {
        Node: {
          type: 'object',
          properties: { value: { type: 'string' }, child: { $ref: '#/$defs/Node' } },
        },
      },
      properties: { root: { $ref: '#/$defs/Node' } },
    };
    const output = convertMcpSchemaToFunctionCall(input);
    expect(JSON.stringify(output)).toBe(
      JSON.stringify({
        type: 'object',
        properties: {
          root: {
            type: 'object',
            properties: { value: { type: 'string' }, child: { type: 'object' } },
          },
        },
      }),
    );
    expect(input.$defs.Node.properties.child).toEqual({ $ref: '#/$defs/Node' });
  });

  it('expands the same definition in sibling branches (cycle detection is per path)', () => {
    const output = convertMcpSchemaToFunctionCall({
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' } } } },
      properties: { from: { $ref: '#/$defs/Point' }, to: { $ref: '#/$defs/Point' } },
    });
    expect(output.properties).toEqual({
      from: { type: 'object', properties: { x: { type: 'number' } } },
      to: { type: 'object', properties: { x: { type: 'number' } } },
    });
  });

  it('prunes after three followed refs even without a cycle', () => {
    const level = (next: string) => ({
      type: 'object',
      description: `to ${next}`,
      properties: { next: { $ref: `#/$defs/${next}` } },
    });
    const output = convertMcpSchemaToFunctionCall({
      $defs: { A: level('B'), B: level('C'), C: level('D'), D: level('E'), E: { type: 'string' } },
      properties: { start: { $ref: '#/$defs/A' } },
    });
    const start = output.properties as Record<string, { properties: Record<string, unknown> }>;
    const b = start.start.properties.next as { properties: Record<string, unknown> };
    const c = b.properties.next as { properties: Record<string, unknown> };
    expect(c.properties.next).toEqual({ type: 'object', description: 'to E' });
  });

  it('keeps pruned array items for a self-referencing array', () => {
    const output = convertMcpSchemaToFunctionCall({
      $defs: { Tree: { type: 'array', description: 'forest', items: { $ref: '#/$defs/Tree' } } },
      properties: { trees: { $ref: '#/$defs/Tree' } },
    });
    expect(output.properties).toEqual({
      trees: {
        type: 'array',
        description: 'forest',
        items: { type: 'array', description: 'forest', items: { type: 'object' } },
      },
    });
  });

  it('inlines refs inside anyOf and keeps a description written beside the $ref', () => {
    const output = convertMcpSchemaToFunctionCall({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { Dose: { type: 'object', description: 'a dose', properties: { mg: { type: 'number' } } } },
      properties: {
        dose: { anyOf: [{ $ref: '#/$defs/Dose' }, { type: 'null' }] },
        main: { $ref: '#/$defs/Dose', description: 'the main dose' },
      },
      required: ['dose'],
    });
    expect(output).toEqual({
      type: 'object',
      properties: {
        dose: {
          anyOf: [{ type: 'object', description: 'a dose', properties: { mg: { type: 'number' } } }, { type: 'null' }],
        },
        main: { type: 'object', description: 'the main dose', properties: { mg: { type: 'number' } } },
      },
      required: ['dose'],
    });
  });

  it('accepts draft-07 #/definitions refs', () => {
    const output = convertMcpSchemaToFunctionCall({
      definitions: { Id: { type: 'string' } },
      type: 'object',
      properties: { id: { $ref: '#/definitions/Id' } },
    });
    expect(output).toEqual({ type: 'object', properties: { id: { type: 'string' } } });
  });

  it('follows a pointer into a definition’s own $defs, and ~1 as a slash inside a name', () => {
    const output = convertMcpSchemaToFunctionCall({
      $defs: { Outer: { $defs: { Inner: { type: 'integer' } } }, 'a/b': { type: 'boolean' } },
      properties: { n: { $ref: '#/$defs/Outer/$defs/Inner' }, flag: { $ref: '#/$defs/a~1b' } },
    });
    expect(output.properties).toEqual({ n: { type: 'integer' }, flag: { type: 'boolean' } });
  });

  it('turns an unresolvable reference into what the caller gives for it, keeping the rest', () => {
    const seen: string[] = [];
    const output = convertMcpSchemaToFunctionCall(
      { properties: { a: { $ref: '#/$defs/Missing' }, b: { type: 'string' }, c: { $ref: 'http://x/y.json' } } },
      {
        unresolved: (ref, error) => {
          seen.push(`${ref}: ${error.message}`);
          return { description: 'unresolved' };
        },
      },
    );
    expect(output.properties).toEqual({
      a: { description: 'unresolved' },
      b: { type: 'string' },
      c: { description: 'unresolved' },
    });
    expect(seen).toEqual([
      '#/$defs/Missing: schema definition not found: "#/$defs/Missing"',
      'http://x/y.json: unsupported reference "http://x/y.json": only #/$defs/<Name> is supported',
    ]);
  });

  it('adds an empty properties map and the legacy body description', () => {
    expect(convertMcpSchemaToFunctionCall({})).toEqual({ type: 'object', properties: {} });
    const output = convertMcpSchemaToFunctionCall({ properties: { body: { type: 'object' } } });
    expect(output.properties).toEqual({ body: { type: 'object', description: 'Request Body参数' } });
  });

  it('fails with a clear conversion error on a missing or foreign reference', () => {
    expect(() => convertMcpSchemaToFunctionCall({ properties: { a: { $ref: '#/$defs/Missing' } } })).toThrow(
      new SchemaConversionError('schema definition not found: "#/$defs/Missing"'),
    );
    expect(() => convertMcpSchemaToFunctionCall({ properties: { a: { $ref: 'http://evil.example/x.json' } } })).toThrow(
      /unsupported reference/,
    );
    expect(() => convertMcpSchemaToFunctionCall({ properties: { a: { $ref: '#/$defs/__proto__' } } })).toThrow(
      /not found/,
    );
  });

  it('rejects a non-object input and a hostile nesting depth without overflowing the stack', () => {
    expect(() => convertMcpSchemaToFunctionCall([])).toThrow(SchemaConversionError);
    expect(() => convertMcpSchemaToFunctionCall('x')).toThrow(SchemaConversionError);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 5000; level += 1) deep = { type: 'object', properties: { p: deep } };
    expect(() => convertMcpSchemaToFunctionCall(deep)).toThrow(`schema nests deeper than ${MAX_SCHEMA_NESTING} levels`);
  });

  it('keeps non-object property schemas as they are', () => {
    const output = convertMcpSchemaToFunctionCall({ properties: { anything: true, nothing: null } });
    expect(output.properties).toEqual({ anything: true, nothing: null });
  });

  it('does not let a __proto__ property name reach the prototype', () => {
    const input = JSON.parse('{"properties":{"__proto__":{"type":"string"}}}') as Record<string, unknown>;
    const output = convertMcpSchemaToFunctionCall(input);
    const properties = output.properties as Record<string, unknown>;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(properties)).toEqual(['__proto__']);
  });
});

describe('pruneSchema', () => {
  it('keeps type and description and drops properties', () => {
    expect(
      pruneSchema({ type: 'object', description: 'd', properties: { a: { type: 'string' } }, required: ['a'] }),
    ).toEqual({
      type: 'object',
      description: 'd',
    });
  });

  it('defaults the type to object', () => {
    expect(pruneSchema({ description: 'x' })).toEqual({ type: 'object', description: 'x' });
    expect(pruneSchema(null)).toEqual({ type: 'object' });
  });
});
