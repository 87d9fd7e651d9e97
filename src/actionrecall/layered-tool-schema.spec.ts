import { mapFixedParams } from './fixed-params';
import { SchemaConversionError } from './json-schema';
import { convertToolSchemaToFunctionCall } from './layered-tool-schema';

const podSpec = {
  parameters: [
    { name: 'pod_name', in: 'query', required: true, description: 'pod to restart', schema: { type: 'string' } },
    { name: 'X-Request-ID', in: 'header', schema: { type: 'string' } },
    { name: 'id', in: 'path', schema: { $ref: '#/components/schemas/Id' } },
  ],
  request_body: {
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/Restart' },
      },
    },
  },
  components: {
    schemas: {
      Id: { type: 'string', description: 'object id' },
      Restart: {
        type: 'object',
        required: ['namespace', 'ghost'],
        properties: {
          namespace: { type: 'string', description: 'namespace' },
          mode: { type: 'string', enum: ['rolling', 'recreate'] },
          owner: { $ref: '#/components/schemas/Owner' },
        },
      },
      Owner: {
        type: 'object',
        properties: { name: { type: 'string' }, manager: { $ref: '#/components/schemas/Owner' } },
      },
    },
  },
};

describe('convertToolSchemaToFunctionCall (layered)', () => {
  it('puts parameters in their locations and merges the body properties', () => {
    expect(convertToolSchemaToFunctionCall(podSpec)).toEqual({
      type: 'object',
      properties: {
        header: {
          type: 'object',
          description: 'HTTP Header 参数',
          properties: { 'X-Request-ID': { type: 'string' } },
        },
        path: {
          type: 'object',
          description: 'URL Path 参数',
          properties: { id: { type: 'string', description: 'object id' } },
          required: ['id'],
        },
        query: {
          type: 'object',
          description: 'URL Query 参数',
          properties: { pod_name: { type: 'string', description: 'pod to restart' } },
          required: ['pod_name'],
        },
        body: {
          type: 'object',
          description: 'Request Body 参数',
          properties: {
            namespace: { type: 'string', description: 'namespace' },
            mode: { type: 'string', enum: ['rolling', 'recreate'] },
            owner: {
              type: 'object',
              properties: { name: { type: 'string' }, manager: { type: 'object' } },
            },
          },
          required: ['namespace'],
        },
      },
    });
  });

  it('rejects a parameter name used in two locations', () => {
    const spec = {
      parameters: [
        { name: 'id', in: 'path', required: true },
        { name: 'id', in: 'query' },
      ],
    };
    expect(() => convertToolSchemaToFunctionCall(spec)).toThrow(SchemaConversionError);
    expect(() => convertToolSchemaToFunctionCall(spec)).toThrow(/"id" appears in two locations \(path and query\)/);
  });

  it('rejects a body property that repeats a parameter name', () => {
    const spec = {
      parameters: [{ name: 'name', in: 'query' }],
      request_body: {
        content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } } },
      },
    };
    expect(() => convertToolSchemaToFunctionCall(spec)).toThrow(/\(query and body\)/);
  });

  it('keeps an empty body location when the spec declares nothing', () => {
    expect(convertToolSchemaToFunctionCall({})).toEqual({
      type: 'object',
      properties: { body: { type: 'object', description: 'Request Body 参数', properties: {} } },
    });
  });

  it('sends a non-object body whole under request_body', () => {
    const spec = {
      request_body: { content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } },
    };
    expect(convertToolSchemaToFunctionCall(spec).properties).toEqual({
      body: {
        type: 'object',
        description: 'Request Body 参数',
        properties: { request_body: { type: 'array', description: '请求体参数', items: { type: 'string' } } },
      },
    });
  });
});

describe('mapFixedParams (legacy location rules)', () => {
  it('routes declared names by their location and the rest to the body', () => {
    const spec = {
      parameters: [
        { name: 'id', in: 'path' },
        { name: 'limit', in: 'query' },
        { name: 'X-Request-ID', in: 'header' },
      ],
    };
    expect(mapFixedParams({ id: '123', limit: 10, 'X-Request-ID': 'r-1', name: 'test' }, spec)).toEqual({
      header: { 'X-Request-ID': 'r-1' },
      path: { id: '123' },
      query: { limit: 10 },
      body: { name: 'test' },
    });
  });

  it('sends header-like names to the header when the spec is empty', () => {
    expect(mapFixedParams({ 'x-custom-header': 'a', Authorization: 'b', 'normal-param': 'c' }, {})).toEqual({
      header: { 'x-custom-header': 'a', Authorization: 'b' },
      path: {},
      query: {},
      body: { 'normal-param': 'c' },
    });
  });

  it('always returns the four locations', () => {
    expect(mapFixedParams({}, undefined)).toEqual({ header: {}, path: {}, query: {}, body: {} });
  });
});
