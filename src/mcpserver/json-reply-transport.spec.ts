import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  classifyInboundRequest,
  isJSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import { isLegacyRequest, JsonReplyTransport, plainJsonRequest } from './json-reply-transport';

const CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'kn_search', arguments: { query: 'q' } } };
const HEADERS = {
  host: '127.0.0.1:30779',
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2025-11-25',
};

function request(headers: Record<string, string | undefined> = {}): IncomingMessage {
  return { method: 'POST', headers: { ...HEADERS, ...headers } } as unknown as IncomingMessage;
}

describe('plainJsonRequest', () => {
  it('takes a single 2025-leg request the SDK transport would accept unchanged', () => {
    expect(plainJsonRequest(request(), CALL, {})).toBe(CALL);
    expect(plainJsonRequest(request({ 'mcp-protocol-version': undefined }), CALL, {})).toBe(CALL);
  });

  it.each([
    ['a batch', [CALL]],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    ['a response', { jsonrpc: '2.0', id: 1, result: {} }],
    ['initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }],
    ['an extra member', { ...CALL, extra: true }],
    ['no body', undefined],
  ])('leaves %s to the SDK transport', (_what, body) => {
    expect(plainJsonRequest(request(), body, {})).toBeUndefined();
  });

  it.each([
    ['an Accept without SSE', { accept: 'application/json' }],
    ['a form body', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['an unsupported protocol version', { 'mcp-protocol-version': '1999-01-01' }],
  ])('leaves %s to the SDK transport, which answers it with its error', (_what, headers) => {
    expect(plainJsonRequest(request(headers), CALL, {})).toBeUndefined();
  });

  it('leaves a Host or Origin outside the allowlists to mcp-nest, which refuses it', () => {
    const allowlists = { allowedHosts: ['localhost'], allowedOrigins: ['http://localhost'] };
    expect(plainJsonRequest(request({ host: 'localhost:30779' }), CALL, allowlists)).toBe(CALL);
    expect(plainJsonRequest(request({ host: 'evil.example' }), CALL, allowlists)).toBeUndefined();
    expect(
      plainJsonRequest(request({ host: 'localhost', origin: 'http://evil.example' }), CALL, allowlists),
    ).toBeUndefined();
  });
});

describe('isLegacyRequest', () => {
  // The SDK's classification is the contract: an upgrade that moves a request to another leg fails here.
  // Its input is what plainJsonRequest passes on: a body the SDK's isJSONRPCRequest accepts.
  it("agrees with the SDK's classifyInboundRequest on every version, envelope and method header", () => {
    const params = [
      { name: 'kn_search' },
      { name: 'kn_search', _meta: {} },
      { name: 'kn_search', _meta: { progressToken: 1 } },
      ...SUPPORTED_PROTOCOL_VERSIONS.map((version) => ({
        name: 'kn_search',
        _meta: { [PROTOCOL_VERSION_META_KEY]: version },
      })),
      { name: 'kn_search', _meta: { [PROTOCOL_VERSION_META_KEY]: 7 } },
      { name: 'kn_search', _meta: [PROTOCOL_VERSION_META_KEY] },
      [],
      undefined,
    ];
    let compared = 0;
    // 2026-07-28: the first version of the 2026 leg, which the SDK serves only with an envelope claim.
    for (const version of [undefined, ...SUPPORTED_PROTOCOL_VERSIONS, '2026-07-28']) {
      for (const param of params) {
        for (const mcpMethodHeader of [undefined, 'tools/call', 'tools/list']) {
          const body = {
            jsonrpc: '2.0',
            id: 3,
            method: 'tools/call',
            ...(param === undefined ? {} : { params: param }),
          };
          if (!isJSONRPCRequest(body)) continue;
          const sdk = classifyInboundRequest({
            httpMethod: 'POST',
            protocolVersionHeader: version,
            mcpMethodHeader,
            body,
          });
          expect({ version, param, mcpMethodHeader, legacy: isLegacyRequest(version, body as JSONRPCRequest) }).toEqual(
            {
              version,
              param,
              mcpMethodHeader,
              legacy: sdk.kind === 'legacy',
            },
          );
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(50);
  });
});

/** A Node response that records what was written. */
class RecordedResponse extends EventEmitter {
  statusCode = 0;
  headersSent = false;
  writableFinished = false;
  readonly headers: Record<string, string> = {};
  body?: string;

  setHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  end(body: string): void {
    this.body = body;
    this.headersSent = true;
    this.writableFinished = true;
  }
}

describe('JsonReplyTransport', () => {
  function connected(response: RecordedResponse) {
    const transport = new JsonReplyTransport(CALL as never, response as unknown as ServerResponse);
    const received: unknown[] = [];
    const closed = jest.fn();
    transport.onmessage = (message, extra) => received.push([message, extra]);
    transport.onclose = closed;
    return { transport, received, closed };
  }

  it('hands the request over and writes its answer as one JSON body', async () => {
    const response = new RecordedResponse();
    const { transport, received } = connected(response);
    transport.deliver({ token: 't' });
    expect(received).toEqual([[CALL, { authInfo: { token: 't' } }]]);
    await transport.send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    });
    // A request of the server's own (its ids are its own, so one can equal the client's) is not the answer.
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'elicitation/create', params: {} });
    await transport.send({ jsonrpc: '2.0', id: 2, result: {} });
    expect(response.body).toBeUndefined();
    await transport.send({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body!)).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [] } });
  });

  it('writes an error answer the same way', async () => {
    const response = new RecordedResponse();
    const { transport } = connected(response);
    transport.deliver(undefined);
    await transport.send({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } });
    expect(JSON.parse(response.body!)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } });
  });

  it('closes (aborting the call) when the client goes away first, not after the answer', async () => {
    const early = new RecordedResponse();
    const first = connected(early);
    first.transport.deliver(undefined);
    early.emit('close');
    expect(first.closed).toHaveBeenCalledTimes(1);
    await first.transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(early.body).toBeUndefined();

    const answered = new RecordedResponse();
    const second = connected(answered);
    second.transport.deliver(undefined);
    await second.transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    answered.emit('close');
    expect(second.closed).not.toHaveBeenCalled();
  });
});
