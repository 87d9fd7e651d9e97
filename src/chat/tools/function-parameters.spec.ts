import { SchemaConversionError } from '../../actionrecall/json-schema';
import { functionParameters } from './function-parameters';

/** Nested definitions, a cycle (Node.children → Node) and a reference to a definition that is not there. */
const TREE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:test:tree',
  type: 'object',
  $defs: {
    Address: { type: 'object', properties: { city: { type: 'string' }, geo: { $ref: '#/$defs/Geo' } } },
    Geo: { type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' } } },
    Node: {
      type: 'object',
      description: 'A tree node',
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
    },
  },
  properties: {
    address: { $ref: '#/$defs/Address' },
    root: { $ref: '#/$defs/Node' },
    owner: { $ref: '#/$defs/Person', description: 'Who owns it' },
    tags: { type: 'array', $comment: 'no items given' },
  },
  required: ['root'],
};

describe('functionParameters', () => {
  it('inlines nested definitions, cuts the cycle and leaves no $ref, $defs or annotation keyword', () => {
    const { parameters, unresolved } = functionParameters(TREE_SCHEMA);
    const text = JSON.stringify(parameters);
    expect(text).not.toMatch(/"\$(ref|defs|schema|id|comment)"/);
    const properties = parameters.properties as Record<string, Record<string, unknown>>;
    expect(properties.address).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string' },
        geo: { type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' } } },
      },
    });
    // The second Node on the path is pruned to its type and description.
    expect(properties.root).toEqual({
      type: 'object',
      description: 'A tree node',
      properties: {
        label: { type: 'string' },
        children: { type: 'array', items: { type: 'object', description: 'A tree node' } },
      },
    });
    expect(parameters.required).toEqual(['root']);
    expect(unresolved).toEqual(['#/$defs/Person']);
  });

  it('offers a dangling $ref as any value, keeping the description written beside it', () => {
    const { parameters } = functionParameters(TREE_SCHEMA);
    expect((parameters.properties as Record<string, unknown>).owner).toEqual({ description: 'Who owns it' });
    const bare = functionParameters({ properties: { x: { $ref: '#/$defs/Gone' } } });
    expect(bare.parameters.properties).toEqual({
      x: { description: 'Unresolved schema reference "#/$defs/Gone": any JSON value.' },
    });
  });

  it('gives an array without items an empty items schema', () => {
    const { parameters } = functionParameters(TREE_SCHEMA);
    expect((parameters.properties as Record<string, unknown>).tags).toEqual({ type: 'array', items: {} });
  });

  it('keeps a property that happens to be named like an annotation keyword', () => {
    const { parameters } = functionParameters({ type: 'object', properties: { $id: { type: 'string' } } });
    expect(parameters.properties).toEqual({ $id: { type: 'string' } });
  });

  it('folds a union at the root into one object without required fields of the variants', () => {
    const { parameters } = functionParameters({
      type: 'object',
      properties: { kind: { type: 'string' } },
      required: ['kind'],
      anyOf: [
        { properties: { url: { type: 'string' } }, required: ['url'] },
        { properties: { path: { type: 'string' }, kind: { const: 'file' } }, required: ['path'] },
      ],
      not: { required: ['both'] },
    });
    expect(parameters).toEqual({
      type: 'object',
      properties: { kind: { type: 'string' }, url: { type: 'string' }, path: { type: 'string' } },
      required: ['kind'],
    });
  });

  it('accepts a nullable object root and offers it as an object', () => {
    expect(functionParameters({ type: ['object', 'null'], properties: {} }).parameters.type).toBe('object');
  });

  it.each([
    ['a string root', { type: 'string' }],
    ['an array root', { type: 'array', items: { type: 'string' } }],
    ['not an object at all', 'schema'],
  ])('refuses %s with a conversion error', (_case, schema) => {
    expect(() => functionParameters(schema)).toThrow(SchemaConversionError);
  });
});
