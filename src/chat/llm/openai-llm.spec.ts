import { Logger } from '@nestjs/common';
import { createServer, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { HttpPeer, PeerHandler, sendJson } from '../../../test/support/http-peer';
import { until } from '../../../test/support/until';
import { realErrorPresenter } from '../../../test/support/unit/i18n';
import { AppException } from '../../common/errors/app.exception';
import { ErrorPresenter } from '../../common/errors/error-presenter';
import { ErrorShapes } from '../../common/errors/error-shapes';
import { LlmConfig } from '../../config/chat.config';
import { OpenAiErrorShape } from '../openai-error-shape';
import { LlmChunk, LlmRequest } from '../chat.types';
import { LlmObserver, OpenAiCompatibleLlm } from './openai-llm';

const API_KEY = 'sk-test-4f1e9c2a7b';
const REQUEST: LlmRequest = { model: 'm1', messages: [{ role: 'user', content: 'Hi' }] };
const IDENTITY = { id: 'c1', model: 'm1', created: 1700000000 };
const USAGE = { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 };
const TOOL_CALL = { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } };
const ANSWER = {
  ...IDENTITY,
  object: 'chat.completion',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Hello', tool_calls: [TOOL_CALL] },
      finish_reason: 'tool_calls',
    },
  ],
  usage: USAGE,
};

let peer: HttpPeer;
let observed: Parameters<LlmObserver>[];

function llmFor(overrides: Partial<LlmConfig> = {}): OpenAiCompatibleLlm {
  const config: LlmConfig = {
    baseUrl: overrides.baseUrl ?? peer.url,
    apiKey: API_KEY,
    model: undefined,
    connectTimeoutMs: 5000,
    idleTimeoutMs: 5000,
    retries: 1,
    maxResponseBytes: 1024 * 1024,
    ...overrides,
  };
  return new OpenAiCompatibleLlm(config, (outcome, seconds) => observed.push([outcome, seconds]));
}

async function startPeer(handler: PeerHandler): Promise<void> {
  peer.setHandler(handler);
  await peer.start();
}

let presenter: ErrorPresenter;

beforeAll(async () => {
  presenter = await realErrorPresenter();
});

interface OpenAiError {
  status: number;
  error: Record<string, unknown>;
}

/** The error a call failed with, as an OpenAI client reads it (in English); no error may ever quote the API key. */
async function chatErrorOf(call: Promise<unknown>): Promise<OpenAiError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppException);
  const shape = new OpenAiErrorShape(new ErrorShapes(), presenter);
  const { status, body } = shape.write(presenter.present(error, 'en-US'), error);
  const openAi = { status, error: (body as { error: Record<string, unknown> }).error };
  expect(`${(error as AppException).message} ${JSON.stringify(openAi)}`).not.toContain(API_KEY);
  return openAi;
}

async function collect(batches: AsyncIterable<LlmChunk[]>): Promise<LlmChunk[]> {
  const collected: LlmChunk[] = [];
  for await (const batch of batches) collected.push(...batch);
  return collected;
}

function frame(body: unknown, lineEnd = '\n'): string {
  return `data: ${JSON.stringify(body)}${lineEnd}${lineEnd}`;
}

function chunkFrame(delta: unknown, finishReason: string | null = null): Record<string, unknown> {
  return { ...IDENTITY, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

function startEventStream(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
}

/** Writes the body 3 bytes at a time, yielding between writes, so frames, lines and UTF-8 characters split. */
async function writeInPieces(response: ServerResponse, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  for (let start = 0; start < bytes.length; start += 3) {
    response.write(bytes.subarray(start, start + 3));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function statusOnce(first: number, then: (response: ServerResponse) => void): PeerHandler {
  return (_request, response) => {
    if (peer.requests.length === 1) sendJson(response, first, { error: { message: 'busy' } });
    else then(response);
  };
}

beforeEach(() => {
  peer = new HttpPeer(() => undefined);
  observed = [];
  jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
});

afterEach(async () => {
  await peer.stop();
  jest.restoreAllMocks();
});

describe('OpenAiCompatibleLlm models', () => {
  it('lists model ids from /v1/models, caches them and defaults to the first', async () => {
    await startPeer((_request, response) =>
      sendJson(response, 200, { object: 'list', data: [{ id: 'm1' }, { id: 'm2' }] }),
    );
    const llm = llmFor();

    expect(await llm.models()).toEqual(['m1', 'm2']);
    expect(await llm.defaultModel()).toBe('m1');
    expect(peer.requests).toHaveLength(1);
    expect(peer.requests[0]).toMatchObject({ method: 'GET', url: '/v1/models' });
    expect(peer.requests[0].headers).toMatchObject({ authorization: `Bearer ${API_KEY}`, accept: 'application/json' });
  });

  it('keeps a base URL that already ends with /v1 and sends no authorization without a key', async () => {
    await startPeer((_request, response) => sendJson(response, 200, { data: [{ id: 'm1' }] }));

    expect(await llmFor({ baseUrl: `${peer.url}/v1`, apiKey: undefined }).models()).toEqual(['m1']);
    expect(peer.requests[0].url).toBe('/v1/models');
    expect(peer.requests[0].headers.authorization).toBeUndefined();
  });

  it('prefers LLM_MODEL without asking the endpoint', async () => {
    await startPeer((_request, response) => sendJson(response, 200, { data: [{ id: 'm1' }] }));

    expect(await llmFor({ model: 'pinned' }).defaultModel()).toBe('pinned');
    expect(peer.requests).toHaveLength(0);
  });

  it('answers 503 model_unavailable when the endpoint lists no model', async () => {
    await startPeer((_request, response) => sendJson(response, 200, { data: [] }));

    const error = await chatErrorOf(llmFor().defaultModel());
    expect(error).toMatchObject({
      status: 503,
      error: {
        code: 'model_unavailable',
        message: 'No language model is available: the model endpoint lists no model: set LLM_MODEL',
      },
    });
  });
});

describe('OpenAiCompatibleLlm complete', () => {
  it('posts a non-streamed request and returns the first choice', async () => {
    await startPeer((_request, response) => sendJson(response, 200, ANSWER));
    const tools = [{ type: 'function' as const, function: { name: 'search', parameters: { type: 'object' } } }];

    const answer = await llmFor().complete({ ...REQUEST, tools }, new AbortController().signal);

    expect(answer).toEqual({
      ...IDENTITY,
      message: { role: 'assistant', content: 'Hello', tool_calls: [TOOL_CALL] },
      finish_reason: 'tool_calls',
      usage: USAGE,
    });
    expect(peer.requests[0]).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
    expect(peer.requests[0].headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${API_KEY}`,
    });
    expect(JSON.parse(peer.requests[0].body)).toEqual({ ...REQUEST, tools, stream: false });
    expect(observed.map(([outcome]) => outcome)).toEqual(['ok']);
  });

  it('sends forwarded fields as given, passthrough fields at the top level, parallel_tool_calls only with tools', async () => {
    await startPeer((_request, response) => sendJson(response, 200, ANSWER));
    const tools = [{ type: 'function' as const, function: { name: 'search' } }];
    const forwarded = { seed: 7, stop: ['END'], parallel_tool_calls: false };
    // A passthrough field never replaces one this service sets (model, stream).
    const passthrough = { reasoning_effort: 'low', model: 'other', stream: true };
    const llm = llmFor();

    await llm.complete({ ...REQUEST, ...forwarded, tools, passthrough }, new AbortController().signal);
    await llm.complete({ ...REQUEST, ...forwarded, passthrough }, new AbortController().signal);

    expect(JSON.parse(peer.requests[0].body)).toEqual({
      ...REQUEST,
      ...forwarded,
      tools,
      reasoning_effort: 'low',
      stream: false,
    });
    expect(JSON.parse(peer.requests[1].body)).toEqual({
      ...REQUEST,
      seed: 7,
      stop: ['END'],
      reasoning_effort: 'low',
      stream: false,
    });
  });

  it('answers 504 when the body stalls longer than the idle timeout', async () => {
    await startPeer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":"c1",');
    });

    const error = await chatErrorOf(llmFor({ idleTimeoutMs: 150 }).complete(REQUEST, new AbortController().signal));

    expect(error).toMatchObject({
      status: 504,
      error: {
        code: 'upstream_timeout',
        message: 'The language model endpoint did not answer in time: the model endpoint did not answer within 150 ms',
      },
    });
    expect(peer.requests).toHaveLength(1);
  });

  it('answers 502 when the body has no choices[0].message', async () => {
    await startPeer((_request, response) => sendJson(response, 200, { ...IDENTITY, choices: [] }));

    const error = await chatErrorOf(llmFor().complete(REQUEST, new AbortController().signal));
    expect(error).toMatchObject({
      status: 502,
      error: {
        code: 'upstream_unavailable',
        message: 'The language model endpoint failed: the model endpoint returned a malformed answer',
      },
    });
  });
});

describe('OpenAiCompatibleLlm stream', () => {
  it('decodes frames split at any byte, including tool call deltas and a usage-only last frame', async () => {
    const body =
      ': keep-alive\r\n\r\n' +
      frame({ ...chunkFrame({ role: 'assistant', content: '' }), usage: null }, '\r\n') +
      'id: 7\n' +
      frame(chunkFrame({ content: 'Grüße, 世界' })) +
      // One JSON object spread over two data lines of one event.
      `data: {"id":"c1","model":"m1","created":1700000000,\r\ndata: "choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"search","arguments":""}}]},"finish_reason":null}]}\r\n\r\n` +
      frame(chunkFrame({ tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] })) +
      frame(chunkFrame({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] })) +
      frame(chunkFrame({}, 'tool_calls')) +
      frame({ ...IDENTITY, object: 'chat.completion.chunk', choices: [], usage: USAGE }) +
      'data: [DONE]\n\n' +
      // Anything after [DONE] is never read: this would be a malformed frame.
      'data: {not json}\n\n';
    await startPeer(async (_request, response) => {
      startEventStream(response);
      await writeInPieces(response, body);
      response.end();
    });

    const chunks = await collect(llmFor().stream(REQUEST, new AbortController().signal));

    expect(chunks).toEqual([
      { ...IDENTITY, delta: { role: 'assistant', content: '' }, finish_reason: null },
      { ...IDENTITY, delta: { content: 'Grüße, 世界' }, finish_reason: null },
      {
        ...IDENTITY,
        delta: {
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'search', arguments: '' } }],
        },
        finish_reason: null,
      },
      { ...IDENTITY, delta: { tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] }, finish_reason: null },
      { ...IDENTITY, delta: { tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }, finish_reason: null },
      { ...IDENTITY, delta: {}, finish_reason: 'tool_calls' },
      { ...IDENTITY, delta: {}, finish_reason: null, usage: USAGE },
    ]);
    expect(JSON.parse(peer.requests[0].body)).toEqual({
      ...REQUEST,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(peer.requests[0].headers.accept).toBe('text/event-stream');
    expect(observed.map(([outcome]) => outcome)).toEqual(['ok']);
  });

  it('hands over the chunks of one read as one batch and keeps the connection for the next call', async () => {
    const sockets = new Set<unknown>();
    await startPeer((_request, response) => {
      sockets.add(response.socket);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(
        frame(chunkFrame({ role: 'assistant', content: 'a' })) +
          frame(chunkFrame({ content: 'b' })) +
          frame(chunkFrame({}, 'stop')) +
          'data: [DONE]\n\n',
      );
    });
    const llm = llmFor();

    const batches: LlmChunk[][] = [];
    for await (const batch of llm.stream(REQUEST, new AbortController().signal)) batches.push(batch);
    // What follows [DONE] is drained in the background; the connection is back in the pool a turn later.
    await new Promise((resolve) => setImmediate(resolve));
    await collect(llm.stream(REQUEST, new AbortController().signal));

    expect(batches.map((batch) => batch.map((chunk) => chunk.delta.content ?? null))).toEqual([['a', 'b', null]]);
    expect(peer.requests).toHaveLength(2);
    expect(sockets.size).toBe(1);
  });

  it('replays a JSON answer to a stream request as chunks', async () => {
    await startPeer((_request, response) => sendJson(response, 200, ANSWER));

    const chunks = await collect(llmFor().stream(REQUEST, new AbortController().signal));

    expect(chunks).toEqual([
      { ...IDENTITY, delta: { role: 'assistant', content: 'Hello' }, finish_reason: null },
      { ...IDENTITY, delta: { tool_calls: [{ index: 0, ...TOOL_CALL }] }, finish_reason: null },
      { ...IDENTITY, delta: {}, finish_reason: 'tool_calls', usage: USAGE },
    ]);
  });

  it('refuses an event over maxResponseBytes as a model_error before reading the rest, and closes the connection', async () => {
    let closed = false;
    await startPeer((_request, response) => {
      startEventStream(response);
      response.on('close', () => (closed = true));
      // One event that never ends: 64 KiB pieces of one data line, for as long as the reader takes them.
      const piece = `data: {"choices":[{"delta":{"content":"${'x'.repeat(65536)}`;
      const pump = (): void => {
        while (!response.destroyed && response.write(piece));
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });

    const attempt = collect(llmFor({ maxResponseBytes: 256 * 1024 }).stream(REQUEST, new AbortController().signal));

    await expect(attempt).rejects.toMatchObject({
      definition: { code: 'agentRetrieval.BadGateway.ModelOutputInvalid' },
    });
    await until('the model connection is closed', () => closed);
  });

  it('refuses a JSON answer over maxResponseBytes as a model_error', async () => {
    await startPeer((_request, response) => sendJson(response, 200, { ...ANSWER, padding: 'x'.repeat(4096) }));

    const attempt = collect(llmFor({ maxResponseBytes: 2048 }).stream(REQUEST, new AbortController().signal));

    await expect(attempt).rejects.toMatchObject({
      definition: { code: 'agentRetrieval.BadGateway.ModelOutputInvalid' },
    });
  });

  it('answers 504 when the stream stalls longer than the idle timeout, without retrying', async () => {
    await startPeer((_request, response) => {
      startEventStream(response);
      response.write(frame(chunkFrame({ role: 'assistant', content: 'Hel' })));
    });
    const iterator = llmFor({ idleTimeoutMs: 150, retries: 2 }).stream(REQUEST, new AbortController().signal);
    const chunks: LlmChunk[] = [];

    const error = await chatErrorOf(
      (async () => {
        for await (const batch of iterator) chunks.push(...batch);
      })(),
    );

    expect(chunks.map((chunk) => chunk.delta.content)).toEqual(['Hel']);
    expect(error).toMatchObject({
      status: 504,
      error: {
        code: 'upstream_timeout',
        message: 'The language model endpoint did not answer in time: the model endpoint did not answer within 150 ms',
      },
    });
    expect(peer.requests).toHaveLength(1);
    expect(observed.map(([outcome]) => outcome)).toEqual(['timeout']);
  });

  it('closes the connection when the consumer stops reading early', async () => {
    let closed: Promise<boolean> = Promise.resolve(false);
    await startPeer((_request, response) => {
      closed = new Promise((resolve) => response.on('close', () => resolve(!response.writableFinished)));
      startEventStream(response);
      response.write(frame(chunkFrame({ role: 'assistant', content: 'Hel' })));
    });

    for await (const batch of llmFor({ idleTimeoutMs: 60000 }).stream(REQUEST, new AbortController().signal)) {
      expect(batch.map((chunk) => chunk.delta.content)).toEqual(['Hel']);
      break;
    }

    expect(await closed).toBe(true);
    expect(observed.map(([outcome]) => outcome)).toEqual(['ok']);
  });

  it('ends with an AbortError when the caller aborts mid-stream, and closes the connection', async () => {
    let closed: Promise<boolean> = Promise.resolve(false);
    await startPeer((_request, response) => {
      closed = new Promise((resolve) => response.on('close', () => resolve(!response.writableFinished)));
      startEventStream(response);
      response.write(frame(chunkFrame({ role: 'assistant', content: 'Hel' })));
    });
    const caller = new AbortController();
    const stream = llmFor({ idleTimeoutMs: 60000, retries: 2 }).stream(REQUEST, caller.signal);
    const iterator = stream[Symbol.asyncIterator]();

    expect((await iterator.next()).value).toMatchObject([{ delta: { content: 'Hel' } }]);
    const next = iterator.next();
    caller.abort();

    await expect(next).rejects.toMatchObject({ name: 'AbortError' });
    expect(await closed).toBe(true);
    expect(peer.requests).toHaveLength(1);
    expect(observed.map(([outcome]) => outcome)).toEqual(['error']);
  });
});

describe('OpenAiCompatibleLlm upstream errors', () => {
  it('passes an OpenAI-shaped 4xx through with its status, type, code, param and a bounded message', async () => {
    const message = `This model's maximum context length is 8192 tokens. ${'x'.repeat(600)}`;
    await startPeer((_request, response) =>
      sendJson(response, 400, {
        error: { message, type: 'invalid_request_error', code: 'context_length_exceeded', param: 'messages' },
      }),
    );

    const error = await chatErrorOf(llmFor({ retries: 2 }).complete(REQUEST, new AbortController().signal));

    expect(error).toEqual({
      status: 400,
      error: {
        message: `The language model endpoint refused the request: the model endpoint answered HTTP 400: ${message.slice(0, 500)}`,
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        param: 'messages',
      },
    });
    expect(peer.requests).toHaveLength(1);
  });

  it('defaults the type and code of a 4xx error body and hides a key the endpoint quotes', async () => {
    await startPeer((_request, response) =>
      sendJson(response, 401, { error: { message: `Incorrect API key provided: ${API_KEY}`, code: null } }),
    );

    const error = await chatErrorOf(llmFor().complete(REQUEST, new AbortController().signal));

    expect(error).toEqual({
      status: 401,
      error: {
        message:
          'The language model endpoint refused the request: the model endpoint answered HTTP 401: Incorrect API key provided: ***',
        type: 'invalid_request_error',
        code: 'upstream_error',
      },
    });
  });

  it('names only the status of a 4xx whose body is not OpenAI-shaped', async () => {
    await startPeer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('no such route');
    });

    const error = await chatErrorOf(llmFor().complete(REQUEST, new AbortController().signal));

    expect(error).toMatchObject({
      status: 404,
      error: {
        type: 'invalid_request_error',
        code: 'upstream_error',
        message: 'The language model endpoint refused the request: the model endpoint answered HTTP 404',
      },
    });
  });

  it('answers 502 for HTTP 500 without retrying it', async () => {
    await startPeer((_request, response) => sendJson(response, 500, { error: { message: 'boom' } }));

    const error = await chatErrorOf(llmFor({ retries: 2 }).complete(REQUEST, new AbortController().signal));

    expect(error).toMatchObject({
      status: 502,
      error: {
        code: 'upstream_unavailable',
        message: 'The language model endpoint failed: the model endpoint answered HTTP 500',
      },
    });
    expect(peer.requests).toHaveLength(1);
    expect(observed.map(([outcome]) => outcome)).toEqual(['error']);
  });

  it('answers 502 for HTTP 502 after retries + 1 attempts', async () => {
    await startPeer((_request, response) => sendJson(response, 502, { error: { message: 'bad gateway' } }));

    const error = await chatErrorOf(llmFor({ retries: 2 }).complete(REQUEST, new AbortController().signal));

    expect(error).toMatchObject({
      status: 502,
      error: {
        code: 'upstream_unavailable',
        message: 'The language model endpoint failed: the model endpoint answered HTTP 502',
      },
    });
    expect(peer.requests).toHaveLength(3);
    expect(observed.map(([outcome]) => outcome)).toEqual(['error']);
  });

  it('succeeds after one retry when the endpoint answers 503 first', async () => {
    await startPeer(statusOnce(503, (response) => sendJson(response, 200, ANSWER)));

    const answer = await llmFor({ retries: 1 }).complete(REQUEST, new AbortController().signal);

    expect(answer.message.content).toBe('Hello');
    expect(peer.requests).toHaveLength(2);
    expect(observed.map(([outcome]) => outcome)).toEqual(['ok']);
  });

  it('retries a 429 only when Retry-After is at most 2 s', async () => {
    const tooMany =
      (retryAfter: string): PeerHandler =>
      (_request, response) => {
        if (peer.requests.length > 1) return sendJson(response, 200, ANSWER);
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
        response.end(
          JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limited' } }),
        );
      };
    await startPeer(tooMany('60'));

    const error = await chatErrorOf(llmFor().complete(REQUEST, new AbortController().signal));
    expect(error).toMatchObject({ status: 429, error: { type: 'rate_limit_error', code: 'rate_limited' } });
    expect(error.error.message).toMatch(/: slow down$/);

    peer.requests.length = 0;
    peer.setHandler(tooMany('0'));
    expect((await llmFor().complete(REQUEST, new AbortController().signal)).message.content).toBe('Hello');
    expect(peer.requests).toHaveLength(2);
  });

  it('answers 502 unreachable when the connection is refused', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });

    const error = await chatErrorOf(
      llmFor({ baseUrl: `http://127.0.0.1:${closedPort}` }).complete(REQUEST, new AbortController().signal),
    );

    expect(error).toMatchObject({
      status: 502,
      error: {
        code: 'upstream_unavailable',
        message: 'The language model endpoint could not be reached: the model endpoint is unreachable',
      },
    });
    expect(observed.map(([outcome]) => outcome)).toEqual(['unreachable']);
  });

  it('answers 504 when the headers do not arrive within the connect timeout, after retrying', async () => {
    await startPeer(() => undefined);

    const error = await chatErrorOf(
      llmFor({ connectTimeoutMs: 150, retries: 1 }).complete(REQUEST, new AbortController().signal),
    );

    expect(error).toMatchObject({
      status: 504,
      error: {
        code: 'upstream_timeout',
        message: 'The language model endpoint did not answer in time: the model endpoint did not answer within 150 ms',
      },
    });
    expect(peer.requests).toHaveLength(2);
    expect(observed.map(([outcome]) => outcome)).toEqual(['timeout']);
  });

  it('ends with an AbortError, without retrying, when the caller aborts before the headers', async () => {
    await startPeer(() => undefined);
    const caller = new AbortController();
    const answer = llmFor({ retries: 2 }).complete(REQUEST, caller.signal);
    await until('the request reached the endpoint', () => peer.requests.length === 1);
    caller.abort();

    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
    expect(peer.requests).toHaveLength(1);
  });
});

describe('OpenAiCompatibleLlm unconfigured', () => {
  it('answers 503 model_unavailable from every method', async () => {
    const llm = new OpenAiCompatibleLlm({
      baseUrl: undefined,
      apiKey: undefined,
      model: 'm1',
      maxResponseBytes: 1024,
      connectTimeoutMs: 1000,
      idleTimeoutMs: 1000,
      retries: 1,
    });
    const signal = new AbortController().signal;

    expect(llm.configured).toBe(false);
    for (const call of [
      llm.models(),
      llm.defaultModel(),
      llm.complete(REQUEST, signal),
      collect(llm.stream(REQUEST, signal)),
    ]) {
      const error = await chatErrorOf(call);
      expect(error).toEqual({
        status: 503,
        error: {
          message:
            'No language model is available: no language model is configured: set LLM_BASE_URL (and LLM_MODEL, LLM_API_KEY if needed)',
          type: 'service_unavailable',
          code: 'model_unavailable',
        },
      });
    }
  });
});
