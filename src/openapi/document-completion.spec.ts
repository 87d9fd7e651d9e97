import type { OpenAPIObject } from '@nestjs/swagger';
import { accessOf, completeDocument, operationKey } from './document-completion';
import { hoistSchemaDefinitions } from './schema-hoisting';

const CONDITION = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { condition: { $ref: '#/$defs/__schema0' } },
  $defs: {
    __schema0: {
      type: 'object',
      properties: { sub_conditions: { type: 'array', items: { $ref: '#/$defs/__schema0' } } },
    },
  },
};

describe('OpenAPI document completion', () => {
  it('classifies routes: private prefix, open probes and discovery, the chat door, the rest public', () => {
    expect(accessOf('/api/agent-retrieval/in/v1/kn/kn_search')).toBe('private');
    expect(accessOf('/health/ready')).toBe('open');
    expect(accessOf('/metrics')).toBe('open');
    expect(accessOf('/.well-known/oauth-protected-resource')).toBe('open');
    expect(accessOf('/v1/chat/completions')).toBe('chat');
    expect(accessOf('/api/agent-retrieval/v1/mcp')).toBe('public');
    expect(accessOf('/healthz')).toBe('public');
  });

  it('keys an operation by method and path without its prefix', () => {
    expect(operationKey('post', '/api/agent-retrieval/in/v1/kn/kn_search')).toBe('POST /kn/kn_search');
    expect(operationKey('post', '/api/agent-retrieval/v1/kn/kn_search')).toBe('POST /kn/kn_search');
    expect(operationKey('get', '/v1/models')).toBe('GET /v1/models');
  });

  it('moves a recursive schema part into components once, its references following', () => {
    const body = () => ({ content: { 'application/json': { schema: structuredClone(CONDITION) } } });
    const document = {
      paths: { '/a': { post: { requestBody: body() } }, '/b': { post: { requestBody: body() } } },
    } as unknown as Record<string, unknown>;
    hoistSchemaDefinitions(document);
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    expect(Object.keys(schemas)).toEqual(['Schema1___schema0']);
    expect(schemas.Schema1___schema0).toEqual({
      type: 'object',
      properties: {
        sub_conditions: { type: 'array', items: { $ref: '#/components/schemas/Schema1___schema0' } },
      },
    });
    const paths = document.paths as Record<string, { post: { requestBody: ReturnType<typeof body> } }>;
    for (const path of ['/a', '/b']) {
      expect(paths[path].post.requestBody.content['application/json'].schema).toEqual({
        type: 'object',
        properties: { condition: { $ref: '#/components/schemas/Schema1___schema0' } },
      });
    }
  });

  it('gives public operations Bearer, private ones the account headers, and each its error bodies', () => {
    const operation = () => ({
      responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
    });
    const document = {
      openapi: '3.0.0',
      info: { title: 't', version: '1.0.0' },
      paths: {
        '/api/agent-retrieval/v1/kn/networks': { get: operation() },
        '/api/agent-retrieval/in/v1/kn/networks': { get: operation() },
      },
    } as unknown as OpenAPIObject;
    const completed = completeDocument(document, '0.1.0', { type: 'object' });
    expect(completed).toMatchObject({ openapi: '3.1.0', info: { version: '0.1.0' } });
    const publicOperation = completed.paths['/api/agent-retrieval/v1/kn/networks'].get!;
    const privateOperation = completed.paths['/api/agent-retrieval/in/v1/kn/networks'].get!;
    expect(publicOperation.security).toEqual([{ bearer: [] }]);
    expect(privateOperation.security).toEqual([]);
    expect(privateOperation.parameters).toContainEqual(
      expect.objectContaining({ name: 'x-account-id', required: true }),
    );
    expect(publicOperation.responses['401']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDto' } } },
    });
    expect(completed.paths['/v1/chat/completions'].post!.responses['400']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/OpenAiError' } } },
    });
    expect(publicOperation.responses['200']).toMatchObject({
      content: {
        'application/json': {
          examples: { demo: { value: { networks: [expect.objectContaining({ id: 'clinic' })] } } },
        },
      },
    });
  });
});
