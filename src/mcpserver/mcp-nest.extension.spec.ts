import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { McpStrategy } from '@rekog/mcp-nest';
import type { Request } from 'express';
import { declareAmbientRequestContext } from '../common/context/request-context';
import { requestContextMiddleware } from '../common/http/request-context.middleware';
import {
  CatalogMcpStrategy,
  createMcpEndpointParts,
  McpConnection,
  McpRequestHandlers,
  McpServerHandlers,
} from './mcp-nest.extension';

/**
 * The contract this service relies on in @rekog/mcp-nest (see mcp-nest.extension.ts). Each test names
 * one extension point; a failure after an upgrade says which assumption broke.
 */

const IDENTITY = { name: 'contract', version: '9.9.9', instructions: 'contract instructions' };
const EMPTY_FORM = { type: 'object', properties: {} };

/** Handlers that answer tools/list and tools/call, and remember what each request was served with. */
class RecordingHandlers implements McpServerHandlers {
  readonly connections: McpConnection[] = [];

  install(handlers: Parameters<McpServerHandlers['install']>[0], connection: McpConnection): void {
    this.connections.push(connection);
    handlers.setRequestHandler('tools/list', () => ({
      tools: [{ name: 'echo', description: 'echo', inputSchema: { type: 'object' as const, properties: {} } }],
    }));
    handlers.setRequestHandler('tools/call', (request) => ({
      content: [
        {
          type: 'text' as const,
          text: `${request.params.name}:${String(connection.request?.headers['x-probe'] ?? '')}`,
        },
      ],
    }));
  }
}

async function serve(
  handlers: McpServerHandlers,
  parts = createMcpEndpointParts(IDENTITY, undefined),
): Promise<{ app: NestExpressApplication; url: string }> {
  Controller('mcp')(parts.controller);
  @Module({ controllers: [parts.controller] })
  class ContractModule {}
  const app = await NestFactory.create<NestExpressApplication>(ContractModule, { logger: false });
  // As in the service: the per-request choice of extension point 5 rides the request's context.
  app.use(requestContextMiddleware('en-US'));
  parts.strategy.setHttpAdapter(app.getHttpAdapter());
  parts.strategy.serve(handlers);
  app.connectMicroservice({ strategy: parts.strategy }, { inheritAppConfig: false });
  await app.startAllMicroservices();
  await app.listen(0, '127.0.0.1');
  return { app, url: `${await app.getUrl()}/mcp` };
}

describe('@rekog/mcp-nest extension points', () => {
  let app: NestExpressApplication | undefined;

  // As the service runs without an upstream that needs it: the per-request choices ride the request only.
  beforeAll(() => declareAmbientRequestContext(false));

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('McpStrategy still has a public bindRequestHandlers(server, session, rawRequest) to override', () => {
    expect(typeof McpStrategy.prototype.bindRequestHandlers).toBe('function');
    expect(McpStrategy.prototype.bindRequestHandlers.length).toBe(3);
    expect(Object.getPrototypeOf(CatalogMcpStrategy.prototype)).toBe(McpStrategy.prototype);
  });

  it('declares the capabilities itself: mcp-nest finds no decorated handler to derive them from', async () => {
    const served = await serve(new RecordingHandlers());
    app = served.app;
    const client = new Client({ name: 'contract-v1', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: false },
      resources: { listChanged: false },
      prompts: { listChanged: false },
      completions: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    expect(client.getServerVersion()).toMatchObject({ name: 'contract', version: '9.9.9' });
    expect(client.getInstructions()).toBe('contract instructions');
    await client.close();
  });

  it('a legacy (2025) stateless request is served by a server whose handlers come from bindRequestHandlers', async () => {
    const handlers = new RecordingHandlers();
    const served = await serve(handlers);
    app = served.app;
    const client = new Client({ name: 'contract-v1', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { 'X-Probe': 'legacy' } } }),
    );
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    const result = await client.callTool({ name: 'echo', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'echo:legacy' }]);
    await client.close();
    // One server per stateless request, each bound with the HTTP request the Nest route received.
    expect(handlers.connections.length).toBeGreaterThanOrEqual(3);
    expect(handlers.connections.every((connection) => connection.era === 'legacy')).toBe(true);
    expect(handlers.connections.at(-1)?.request?.headers['x-probe']).toBe('legacy');
  });

  it('a modern (2026-07-28) request is served the same way, marked as the modern era', async () => {
    const handlers = new RecordingHandlers();
    const served = await serve(handlers);
    app = served.app;
    const client = new ClientV2({ name: 'contract-v2', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new TransportV2(new URL(served.url), { requestInit: { headers: { 'X-Probe': 'modern' } } }));
    const result = await client.callTool({ name: 'echo', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'echo:modern' }]);
    await client.close();
    expect(handlers.connections.some((connection) => connection.era === 'modern')).toBe(true);
    expect(handlers.connections.at(-1)?.request?.headers['x-probe']).toBe('modern');
  });

  it('the controller from McpHttpControllerFor owns POST, GET and DELETE on its route', () => {
    const { controller } = createMcpEndpointParts(IDENTITY, undefined);
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(controller.prototype)).filter(
      (key) => key !== 'constructor',
    );
    expect(methods.length).toBeGreaterThanOrEqual(3);
  });

  it('a 2025-era call asks its client mid-call: SSE answer, the client’s reply routed back, headers added', async () => {
    const parts = createMcpEndpointParts(IDENTITY, undefined);
    const methodOf = (request: Request) => (request.body as { method?: string } | undefined)?.method;
    parts.clientRequests.use({
      responseHeaders: (request) => (methodOf(request) === 'initialize' ? { 'mcp-session-id': 'contract' } : undefined),
      streams: (request) => methodOf(request) === 'tools/call',
      ownerOf: () => 'owner',
    });
    const asking: McpServerHandlers = {
      install: (handlers: McpRequestHandlers) =>
        handlers.setRequestHandler('tools/call', async (_request, context) => {
          const message = { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: EMPTY_FORM } };
          const answer = await parts.clientRequests.ask(handlers, context.mcpReq.id, 'owner', message, 10_000);
          return { content: [{ type: 'text' as const, text: JSON.stringify(answer) }] };
        }),
    };
    const served = await serve(asking, parts);
    app = served.app;
    const client = new Client({ name: 'contract-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => ({
      action: 'accept',
      content: { echoed: request.params.message },
    }));
    const transport = new StreamableHTTPClientTransport(new URL(served.url));
    await client.connect(transport);
    expect(transport.sessionId).toBe('contract');
    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: '{"action":"accept","content":{"echoed":"ok?"}}' }]);
    await client.close();
  });

  it('a reply to a request nobody is waiting for goes to the transport as before', async () => {
    const parts = createMcpEndpointParts(IDENTITY, undefined);
    parts.clientRequests.use({ responseHeaders: () => undefined, streams: () => false, ownerOf: () => 'owner' });
    const served = await serve(new RecordingHandlers(), parts);
    app = served.app;
    const response = await fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'agent-retrieval-unknown', result: {} }),
    });
    expect(response.status).toBe(202);
  });

  it('McpStrategy still has a public createBoundServer(session, rawRequest) (extension point 6)', () => {
    expect(typeof McpStrategy.prototype.createBoundServer).toBe('function');
    expect(McpStrategy.prototype.createBoundServer.length).toBe(2);
  });

  it('a plain JSON call is served by createBoundServer with the bytes mcp-nest’s transport would send', async () => {
    const parts = createMcpEndpointParts(IDENTITY, undefined);
    const bound = jest.spyOn(parts.strategy, 'createBoundServer');
    const handlers = new RecordingHandlers();
    const served = await serve(handlers, parts);
    app = served.app;
    const post = (body: unknown, version = '2025-11-25') =>
      fetch(served.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': version,
          'x-probe': 'plain',
        },
        body: JSON.stringify(body),
      });
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: {} } };
    const plain = await post(call);
    expect(bound).toHaveBeenCalledTimes(1);
    expect(handlers.connections.at(-1)).toMatchObject({ era: 'legacy', request: { headers: { 'x-probe': 'plain' } } });
    // A batch of the same call goes through mcp-nest's transport, which answers a batch of one with the
    // bare answer: the same bytes are expected.
    const batch = await post([call]);
    expect(bound).toHaveBeenCalledTimes(1);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe(batch.headers.get('content-type'));
    expect(await plain.text()).toBe(await batch.text());
    // What the SDK's transport refuses is still refused by it, with its own answer.
    const unsupported = await post(call, '1999-01-01');
    expect(unsupported.status).toBe(400);
    expect(bound).toHaveBeenCalledTimes(1);
  });

  it('refuses to serve before the handlers are set, instead of serving an empty server', () => {
    const { strategy } = createMcpEndpointParts(IDENTITY, undefined);
    const server = { server: { setRequestHandler: jest.fn() } } as unknown as Parameters<
      McpStrategy['bindRequestHandlers']
    >[0];
    expect(() =>
      strategy.bindRequestHandlers(server, { transport: 'streamable-http', stateless: true }, undefined),
    ).toThrow(/no handlers/);
  });
});
