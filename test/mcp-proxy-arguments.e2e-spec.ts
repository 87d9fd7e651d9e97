/**
 * The MCP proxy checks arguments against the tool's inputSchema before the call (issue 31 item 4, seed
 * 000 §7.3 参数校验失败 → 400). The MCP server is a Streamable HTTP peer started here with the MCP SDK; it
 * keeps a log of every tools/call it receives, so a refused call is seen never to have reached it.
 */
import { createServer, IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { ScratchDir, scratchDir } from './support/mcp-fixtures';

const PROXY = '/api/agent-retrieval/in/v1/mcp/proxy';

const RESERVE_STOCK = {
  name: 'reserve_stock',
  description: 'Reserve units of a product',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      sku: { type: 'string' },
      qty: { type: 'integer', minimum: 1 },
      deliver_by: { type: 'string', format: 'date' },
    },
    required: ['sku', 'qty'],
  },
};

/** A stateless Streamable HTTP MCP server with one tool; `calls` is its log of tools/call requests. */
class StockMcpServer {
  readonly calls: { tool: string; arguments: unknown }[] = [];
  private readonly http: HttpServer = createServer((req, res) => void this.handle(req, res));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}/mcp`;
  }

  async stop(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const server = new Server({ name: 'stock', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [RESERVE_STOCK] }));
    server.setRequestHandler(CallToolRequestSchema, (call) => {
      this.calls.push({ tool: call.params.name, arguments: call.params.arguments });
      return { content: [{ type: 'text', text: `reserved ${JSON.stringify(call.params.arguments)}` }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, text === '' ? undefined : JSON.parse(text));
  }
}

describe('MCP proxy argument validation (e2e, Streamable HTTP MCP peer)', () => {
  let mcp: StockMcpServer;
  let scratch: ScratchDir;
  let app: TestApp;

  beforeAll(async () => {
    mcp = new StockMcpServer();
    const url = await mcp.start();
    scratch = scratchDir('mcp-proxy-arguments');
    app = await startTestApp({
      MCP_SERVERS_FILE: scratch.file('mcp.json', JSON.stringify({ mcpServers: { stock: { url } } })),
      KN_DIR: scratch.dir,
    });
  });

  afterAll(async () => {
    await app.close();
    await mcp.stop();
    scratch.remove();
  });

  beforeEach(() => {
    mcp.calls.length = 0;
  });

  const call = (args: unknown) =>
    request(app.url)
      .post(`${PROXY}/stock/tools/reserve_stock/call`)
      .set(INTERNAL_CALLER)
      .set('x-language', 'en-US')
      .send(args as object);

  it('answers {"qty":"abc"} against an integer schema with a 400 naming qty; the server is never called', async () => {
    const response = await call({ sku: 'A-1', qty: 'abc' }).expect(400);
    expect(response.body).toEqual({
      code: 'agentRetrieval.BadRequest.InvalidToolArguments',
      description: expect.any(String),
      solution: expect.any(String),
      link: expect.any(String),
      details: ['qty must be integer'],
    });
    expect(mcp.calls).toEqual([]);
  });

  it('names every field the schema forbids: missing, out of range, bad format', async () => {
    const missing = await call({ qty: 2 }).expect(400);
    expect(missing.body.details).toEqual(['sku is required']);
    const range = await call({ sku: 'A-1', qty: 0, deliver_by: 'soon' }).expect(400);
    expect([...range.body.details].sort()).toEqual(['deliver_by must match format "date"', 'qty must be >= 1']);
    expect(mcp.calls).toEqual([]);
  });

  it('forwards valid arguments unchanged and passes the result back', async () => {
    const response = await call({ sku: 'A-1', qty: 3, deliver_by: '2026-12-01' }).expect(200);
    expect(response.body.content[0].text).toBe('reserved {"sku":"A-1","qty":3,"deliver_by":"2026-12-01"}');
    expect(mcp.calls).toEqual([{ tool: 'reserve_stock', arguments: { sku: 'A-1', qty: 3, deliver_by: '2026-12-01' } }]);
  });

  it('counts a refused call as rejected, never as an upstream call', async () => {
    await call({ sku: 'A-1', qty: 'abc' }).expect(400);
    const metrics = await request(app.url).get('/metrics').expect(200);
    expect(metrics.text).toMatch(
      /agent_retrieval_mcp_proxy_calls_total\{mcp_id="_unknown_",tool="_unknown_",outcome="rejected"\} \d+/,
    );
    expect(metrics.text).not.toMatch(
      /agent_retrieval_operator_upstream_calls_total\{[^}]*operation="mcp_call",outcome="rejected"\}/,
    );
  });
});
