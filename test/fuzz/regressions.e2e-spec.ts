/**
 * The inputs the fuzzers found defects with, kept as plain cases: each failed before its fix and must keep
 * answering in the documented shape.
 */
import { startTestApp, TestApp } from '../support/app';
import { MCP_PATH } from '../support/mcp-clients';
import { RawHttpClient, rawExchange } from '../support/raw-http';
import { isErrorBody, isJsonRpcError } from './invariants';

const RPC_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const LIST_TOOLS = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');

describe('fuzz findings, kept as regressions', () => {
  let app: TestApp;
  let client: RawHttpClient;

  beforeAll(async () => {
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'fuzz-token=fuzzer:user',
      RATE_LIMIT_ENABLED: 'false',
    });
    client = new RawHttpClient(app.url);
  });

  afterAll(async () => {
    client.close();
    await app.close();
  });

  /** An authenticated MCP tools/list sent with this Host header. */
  const listToolsWithHost = (host: string): ReturnType<RawHttpClient['send']> =>
    client.send(
      {
        method: 'POST',
        path: MCP_PATH,
        headers: { ...RPC_HEADERS, authorization: 'Bearer fuzz-token', host },
        body: LIST_TOOLS,
      },
      5000,
    );

  it('headers over the parser limit: 431 with the error body and a request id, not a bare status line', async () => {
    const answer = await rawExchange(
      app.url,
      `GET /api/agent-retrieval/v1/kn/networks?kn_id=${'x'.repeat(20000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/i);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;
    expect(isErrorBody(body)).toBe(true);
    expect(body).toMatchObject({
      code: 'Public.BadRequest',
      details: 'the request line and headers exceed the server limit',
    });
  });

  it('a request line that is not HTTP: 400 with the error body', async () => {
    const answer = await rawExchange(app.url, 'GET /health/live HTTP/9.x\r\nHost: localhost\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(isErrorBody(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)))).toBe(true);
  });

  it('MCP: a backslash in the path is a JSON-RPC error, not an empty 400 from inside the transport', async () => {
    const response = await client.send(
      {
        method: 'POST',
        path: `${MCP_PATH}/..\\..\\windows\\win.ini`,
        headers: { ...RPC_HEADERS, authorization: 'Bearer fuzz-token', 'x-language': 'en-US' },
        body: LIST_TOOLS,
      },
      5000,
    );
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: the request path contains a backslash' },
      id: null,
    });
  });

  it.each(['exa%41mple.com', 'a b', 'example.com:99999', 'évil.com'])(
    'MCP: Host %j the transport cannot rebuild a URL from is a JSON-RPC error',
    async (host) => {
      const response = await listToolsWithHost(host);
      expect(response.status).toBe(400);
      expect(isJsonRpcError(JSON.parse(response.text))).toBe(true);
    },
  );

  it('MCP: ordinary Host spellings still reach the transport', async () => {
    for (const host of ['EXAMPLE.com:8080', '[::1]:80', 'ex_ample.com', 'localhost']) {
      const response = await listToolsWithHost(host);
      expect({ host, status: response.status }).toEqual({ host, status: 200 });
    }
  });
});

describe('refusals before routing keep the error body', () => {
  it('headers that never finish: 408 with the error body (REQUEST_TIMEOUT_MS / HEADERS_TIMEOUT_MS)', async () => {
    const app = await startTestApp({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '1500' });
    try {
      const answer = await rawExchange(
        app.url,
        'GET /health/live HTTP/1.1\r\nHost: localhost\r\nX-Slow: ',
        10000,
        true,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;
      expect(isErrorBody(body)).toBe(true);
      expect(body).toMatchObject({ details: 'the request was not received in time' });
    } finally {
      await app.close();
    }
  });
});
