import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createServer, IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { McpCkbClient } from './mcp-ckb-client';
import { testConfig } from '../../../test/support/unit/config';

/** A stateless Streamable HTTP MCP server: one SDK server and transport per POST. */
async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const server = new Server({ name: 'ckb-http', version: '0.0.1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'getStatus', inputSchema: { type: 'object' } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({
    content: [{ type: 'text', text: '{"status":"ready"}' }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  response.on('close', () => void transport.close());
  await server.connect(transport);
  await transport.handleRequest(request, response);
}

describe('McpCkbClient over Streamable HTTP (CKB_URL)', () => {
  let http: HttpServer;
  let client: McpCkbClient;

  beforeAll(async () => {
    http = createServer((request, response) => void handle(request, response));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    client = new McpCkbClient(testConfig({ CKB_URL: `http://127.0.0.1:${port}/mcp`, CKB_TIMEOUT_MS: '3000' }).ckb);
  });

  afterAll(async () => {
    await client.close();
    await new Promise((resolve) => http.close(resolve));
  });

  it('probes and calls a tool', async () => {
    await expect(client.listTools()).resolves.toEqual(['getStatus']);
    await expect(client.callTool('getStatus', {})).resolves.toEqual({ status: 'ready' });
  });
});
