import { McpToolDetail } from './operator.types';
import { MAX_CACHED_TOOL_SCHEMAS, ToolSchemaCache } from './tool-schema-cache';

const ORDER = {
  type: 'object',
  properties: {
    sku: { type: 'string' },
    qty: { type: 'integer', minimum: 1 },
    ship_on: { type: 'string', format: 'date' },
  },
  required: ['sku'],
};

const tool = (inputSchema: Record<string, unknown>, name = 'order'): McpToolDetail => ({
  name,
  description: '',
  inputSchema,
});

/** The cache's ajv, to count compilations and registered schemas. */
function internals(cache: ToolSchemaCache): { compile: jest.SpyInstance; registered: () => number } {
  const ajv = (cache as unknown as { ajv: { compile: () => unknown; _cache: Map<unknown, unknown> } }).ajv;
  return { compile: jest.spyOn(ajv, 'compile'), registered: () => ajv._cache.size };
}

describe('ToolSchemaCache', () => {
  it('names each field the schema forbids, and passes valid arguments', () => {
    const cache = new ToolSchemaCache();
    const order = tool(ORDER);
    expect(cache.violations('shop', order, { sku: 'A1', qty: 2, ship_on: '2026-11-30' })).toEqual([]);
    expect(cache.violations('shop', order, { qty: 'abc' }).sort()).toEqual(['qty must be integer', 'sku is required']);
    expect(cache.violations('shop', order, { sku: 'A1', qty: 0 })).toEqual(['qty must be >= 1']);
  });

  it('checks formats (ajv-formats)', () => {
    const cache = new ToolSchemaCache();
    expect(cache.violations('shop', tool(ORDER), { sku: 'A1', ship_on: 'next tuesday' })).toEqual([
      'ship_on must match format "date"',
    ]);
  });

  it('compiles a tool once while its list hands out the same schema', () => {
    const cache = new ToolSchemaCache();
    const { compile } = internals(cache);
    const order = tool(ORDER);
    for (let i = 0; i < 5; i++) cache.violations('shop', order, { sku: 'A1', qty: i + 1 });
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('keeps the compiled schema when a refreshed list brings the same schema as new objects', () => {
    const cache = new ToolSchemaCache();
    const { compile } = internals(cache);
    cache.violations('shop', tool(ORDER), { sku: 'A1' });
    cache.violations('shop', tool(structuredClone(ORDER)), { sku: 'A1' });
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('compiles again when a refreshed list brings a changed schema, and drops the old one', () => {
    const cache = new ToolSchemaCache();
    const { compile, registered } = internals(cache);
    expect(cache.violations('shop', tool(ORDER), { sku: 'A1', qty: 'many' })).toEqual(['qty must be integer']);
    const before = registered();
    const loosened = { ...ORDER, properties: { ...ORDER.properties, qty: { type: 'string' } } };
    expect(cache.violations('shop', tool(loosened), { sku: 'A1', qty: 'many' })).toEqual([]);
    expect(compile).toHaveBeenCalledTimes(2);
    expect(registered()).toBe(before);
  });

  it('keeps tools of different servers, and tools sharing an $id, apart', () => {
    const cache = new ToolSchemaCache();
    const a = tool({ $id: 'urn:tool', type: 'object', required: ['a'] }, 'same');
    const b = tool({ $id: 'urn:tool', type: 'object', required: ['b'] }, 'same');
    expect(cache.violations('one', a, {})).toEqual(['a is required']);
    expect(cache.violations('two', b, {})).toEqual(['b is required']);
    expect(cache.violations('one', a, {})).toEqual(['a is required']);
  });

  it('reads a draft-07 $schema as 2020-12 instead of failing', () => {
    const cache = new ToolSchemaCache();
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', ...ORDER };
    expect(cache.violations('srv', tool(draft7), { sku: 1 })).toEqual(['sku must be string']);
  });

  it('answers a schema ajv cannot compile with a 500, compiles it once and leaves nothing in ajv', () => {
    const cache = new ToolSchemaCache();
    const { compile, registered } = internals(cache);
    const before = registered();
    const broken = tool({ type: 'object', properties: { x: { type: 'no-such-type' } } });
    for (let i = 0; i < 2; i++) {
      expect(() => cache.violations('srv', broken, { x: 1 })).toThrow(
        expect.objectContaining({
          status: 500,
          details: 'the inputSchema of MCP tool srv/order cannot be used to check arguments',
        }),
      );
    }
    expect(compile).toHaveBeenCalledTimes(1);
    expect(registered()).toBe(before);
  });

  it('checks a schema with a dangling $ref with that part as any value, as the model reads it', () => {
    const cache = new ToolSchemaCache();
    const dangling = tool({
      type: 'object',
      properties: { qty: { type: 'integer' }, note: { $ref: '#/$defs/Missing' } },
      required: ['qty'],
    });
    expect(cache.violations('srv', dangling, { qty: 'x', note: { any: 1 } })).toEqual(['qty must be integer']);
    expect(cache.violations('srv', dangling, { qty: 2, note: 'anything' })).toEqual([]);
  });

  it('stays bounded: tools past the limit are evicted from ajv as well', () => {
    const cache = new ToolSchemaCache();
    const { registered } = internals(cache);
    const before = registered();
    for (let i = 0; i < MAX_CACHED_TOOL_SCHEMAS + 20; i++) {
      cache.violations('srv', tool({ type: 'object', required: [`p${i}`] }, `t${i}`), {});
    }
    expect(registered()).toBe(before + MAX_CACHED_TOOL_SCHEMAS);
  });
});
