import { connect } from 'node:net';
import { startTestApp, TestApp } from './support/app';

const KN_SEARCH = '/api/agent-retrieval/in/v1/kn/kn_search';

interface Exchange {
  /** Everything the server wrote before the connection ended. */
  response: string;
  /** The server ended the connection (FIN or reset); false when the client gave up waiting. */
  closedByServer: boolean;
}

/** Writes raw bytes on a fresh connection, never ends it, and waits for the server to close it. */
function exchange(port: number, request: string, waitMs = 20000): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let response = '';
    let closedByServer = false;
    const giveUp = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk: Buffer) => (response += chunk.toString('utf8')));
    socket.on('end', () => (closedByServer = true));
    socket.on('error', () => (closedByServer = true));
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ response, closedByServer });
    });
  });
}

function statusOf(response: string): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(response);
  return match ? Number(match[1]) : undefined;
}

function headerOf(response: string, name: string): string | undefined {
  const head = response.split('\r\n\r\n')[0];
  const line = head.split('\r\n').find((item) => item.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

function bodyOf(response: string): Record<string, unknown> {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
}

function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({ Host: '127.0.0.1', ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

describe('HTTP server read limits (e2e)', () => {
  let app: TestApp;
  let port: number;

  beforeAll(async () => {
    // Short read deadlines so a stalled client is dropped within the test's patience.
    app = await startTestApp({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '1500', BODY_LIMIT: '4mb' });
    port = Number(new URL(app.url).port);
  });

  afterAll(async () => {
    await app.close();
  });

  it.each(['application/octet-stream', 'application/json'])(
    'answers a Content-Length over BODY_LIMIT (%s) with 413 before any body, then closes the connection',
    async (contentType) => {
      const head = requestHead('POST', KN_SEARCH, {
        'Content-Type': contentType,
        'Content-Length': 999999999,
        'X-Account-Id': 'alice',
        'X-Account-Type': 'user',
        'X-Language': 'en-US',
      });
      const result = await exchange(port, head);
      expect(statusOf(result.response)).toBe(413);
      expect(headerOf(result.response, 'connection')).toBe('close');
      expect(bodyOf(result.response)).toEqual({
        code: 'Public.PayloadTooLarge',
        description: expect.any(String),
        solution: expect.any(String),
        link: expect.any(String),
        details: 'Content-Length 999999999 exceeds the 4194304-byte body limit',
      });
      expect(result.closedByServer).toBe(true);
    },
  );

  it('drops a request whose body stalls: 408 and the server closes the connection', async () => {
    const head = requestHead('POST', KN_SEARCH, {
      'Content-Type': 'application/json',
      'Content-Length': 100,
      'X-Account-Id': 'alice',
      'X-Account-Type': 'user',
    });
    const result = await exchange(port, `${head}{"kn_id":"x","query":`);
    expect(result.closedByServer).toBe(true);
    expect(statusOf(result.response)).toBe(408);
    expect(headerOf(result.response, 'connection')).toBe('close');
  });

  it('drops a request whose headers never finish: 408 and the server closes the connection', async () => {
    const result = await exchange(port, 'GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(result.closedByServer).toBe(true);
    expect(statusOf(result.response)).toBe(408);
  });

  it('still answers a complete request on the same server', async () => {
    const response = await fetch(`${app.url}/health/live`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe('a Content-Length over the limit is answered once the route is known (e2e)', () => {
  let app: TestApp;
  let port: number;

  beforeAll(async () => {
    app = await startTestApp({ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 'tok=alice:user', BODY_LIMIT: '4mb' });
    port = Number(new URL(app.url).port);
  });

  afterAll(async () => {
    await app.close();
  });

  const oversized = (path: string, headers: Record<string, string> = {}) =>
    exchange(
      port,
      requestHead('POST', path, {
        'Content-Type': 'application/json',
        'Content-Length': 999999999,
        'X-Language': 'en-US',
        ...headers,
      }),
    );

  it('on the chat door: 413 in the OpenAI shape, then the connection closes', async () => {
    const result = await oversized('/v1/chat/completions', { Authorization: 'Bearer tok' });
    expect(statusOf(result.response)).toBe(413);
    expect(headerOf(result.response, 'connection')).toBe('close');
    expect(bodyOf(result.response)).toEqual({
      error: {
        message: 'Request body too large: Content-Length 999999999 exceeds the 4194304-byte body limit',
        type: 'invalid_request_error',
        code: 'Public.PayloadTooLarge',
      },
    });
    expect(result.closedByServer).toBe(true);
  });

  it('without a token: the 401 comes first, and the connection still closes without reading the body', async () => {
    const result = await oversized('/v1/chat/completions');
    expect(statusOf(result.response)).toBe(401);
    expect(headerOf(result.response, 'connection')).toBe('close');
    expect(bodyOf(result.response)).toMatchObject({ error: { code: 'agentRetrieval.Unauthorized.TokenMissing' } });
    expect(result.closedByServer).toBe(true);
  });

  it('on no route: the default 404 body, and the connection still closes without reading the body', async () => {
    const result = await oversized('/v1/no/such/route', { Authorization: 'Bearer tok' });
    expect(statusOf(result.response)).toBe(404);
    expect(headerOf(result.response, 'connection')).toBe('close');
    expect(bodyOf(result.response)).toMatchObject({ code: 'Public.NotFound' });
    expect(result.closedByServer).toBe(true);
  });
});
