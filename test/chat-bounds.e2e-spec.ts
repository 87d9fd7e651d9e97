/**
 * The chat door against a model that misbehaves, through real clients and a scripted OpenAI-compatible
 * stand-in: malformed tool calls end the turn with a 502 `model_error`; thousands of calls per round run
 * only within the budget and are charged to the account's rate-limit bucket; the answer is cut at
 * CHAT_MAX_ANSWER_BYTES; completions per account are capped; a client that reads nothing holds the model
 * back (backpressure) and is cut off after CHAT_CLIENT_IDLE_MS; frames carry the text once by default.
 */
import { request as httpRequest, IncomingMessage } from 'node:http';
import OpenAI from 'openai';
import request from 'supertest';
import { startTestApp, TestApp } from './support/app';
import { LlmStandin } from './support/llm-standin';
import { until } from './support/until';

const TOKENS = 'tok-alice=alice:user,tok-bob=bob:user,tok-carol=carol:user,tok-dave=dave:user';
const RATE_LIMIT = 60;
/** Far above what the sockets between the stand-in, the service and the client hold. */
const ANSWER_LIMIT = 32 * 1024 * 1024;

describe('chat bounds (e2e)', () => {
  const model = new LlmStandin();
  let app: TestApp;

  beforeAll(async () => {
    const llmUrl = await model.start();
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: TOKENS,
      LLM_BASE_URL: llmUrl,
      RATE_LIMIT_MAX: String(RATE_LIMIT),
      CHAT_MAX_STREAMS_PER_ACCOUNT: '2',
      CHAT_CLIENT_IDLE_MS: '1000',
      CHAT_MAX_ANSWER_BYTES: String(ANSWER_LIMIT),
    });
  });

  afterAll(async () => {
    await app.close();
    await model.stop();
  });

  const post = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    request(app.url)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${token}`)
      .set(headers)
      .send({ model: 'standin-model', messages: [{ role: 'user', content: 'x' }], ...body });

  const framesOf = (text: string): Record<string, unknown>[] =>
    text
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: ') && frame !== 'data: [DONE]')
      .map((frame) => JSON.parse(frame.slice('data: '.length)) as Record<string, unknown>);

  describe('what the model sends is checked before it is acted on', () => {
    const call = (index: unknown, name = 'kn_search', args = '{}') => ({
      tool_calls: [{ index, id: `call_${String(index)}`, type: 'function', function: { name, arguments: args } }],
    });
    const cases: [string, () => Parameters<LlmStandin['use']>[0]][] = [
      ['index 1e9', () => () => ({ deltas: [call(1e9)] })],
      ['index -1', () => () => ({ deltas: [call(-1)] })],
      ['index 1 with no 0', () => () => ({ deltas: [call(1)] })],
      ['a 1 MB tool name', () => () => ({ deltas: [call(0, 'n'.repeat(1024 * 1024))] })],
      [
        '10 MB of arguments in 64 KB pieces',
        () => () => ({
          deltas: [
            call(0, 'kn_search', ''),
            ...Array.from({ length: 160 }, () => ({
              tool_calls: [{ index: 0, function: { arguments: 'a'.repeat(64 * 1024) } }],
            })),
          ],
        }),
      ],
      [
        '10 MB of arguments in one event',
        () => () => ({ deltas: [call(0, 'kn_search', 'a'.repeat(10 * 1024 * 1024))] }),
      ],
    ];

    it.each(cases)('%s: a 502 model_error, and liveness is unaffected', async (_name, script) => {
      model.use(script());
      const answer = await post('tok-alice', { kn_id: 'clinic' });
      expect(answer.status).toBe(502);
      expect(answer.body.error).toMatchObject({ code: 'model_error', type: 'api_error' });
      expect(answer.text).not.toMatch(/TypeError|stack|at \//);
      await request(app.url).get('/health/live').expect(200);
    });

    it('ends a stream already under way with a model_error frame and [DONE]', async () => {
      model.use(() => ({ deltas: [{ content: 'thinking' }, call(-1)] }));
      const answer = await post('tok-alice', { stream: true, kn_id: 'clinic' });
      expect(answer.status).toBe(200);
      const frames = framesOf(answer.text);
      expect(frames.at(-1)).toMatchObject({ error: { code: 'model_error' } });
      expect(answer.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    });
  });

  it('5,000 calls per round: at most the turn budget runs, the next request stays small, the bucket is charged', async () => {
    const calls = Array.from({ length: 5000 }, (_, index) => ({
      name: 'kn_schema_search',
      arguments: { query: `q${index}`, kn_id: 'clinic' },
    }));
    model.use(() => ({ tool_calls: calls }));
    const answer = await post('tok-carol', { kn_id: 'clinic' }).expect(200);
    const execution = answer.body.tool_execution as { tools_called: string[]; truncated: boolean; notice: string };
    expect(execution.tools_called.length).toBeGreaterThan(0);
    expect(execution.tools_called.length).toBeLessThanOrEqual(16);
    expect(execution.truncated).toBe(true);
    expect(execution.notice).toMatch(/tool calls were not run/);
    expect(model.rawBodies.length).toBe(2);
    expect(Buffer.byteLength(model.rawBodies[1])).toBeLessThan(1024 * 1024);
    // The last request offers no tools: the model answers from what it has.
    expect(model.bodies[1].tools).toBeUndefined();

    // The request and each call it ran took one hit of carol's bucket: what is left is RATE_LIMIT minus those.
    let admitted = 0;
    for (let attempt = 0; attempt < RATE_LIMIT; attempt += 1) {
      const listed = await request(app.url).get('/v1/models').set('authorization', 'Bearer tok-carol');
      if (listed.status === 429) break;
      admitted += 1;
    }
    expect(admitted).toBe(RATE_LIMIT - 1 - execution.tools_called.length);
  });

  it('cuts the answer at CHAT_MAX_ANSWER_BYTES with finish_reason length and says why', async () => {
    model.use(() => ({ flood: { pieceBytes: 64 * 1024, totalBytes: 64 * 1024 * 1024 } }));
    const answer = await post('tok-alice', {}).expect(200);
    expect(answer.body.choices[0].finish_reason).toBe('length');
    expect(Buffer.byteLength(answer.body.choices[0].message.content as string)).toBe(ANSWER_LIMIT);
    expect(answer.body.tool_execution.notice).toMatch(/CHAT_MAX_ANSWER_BYTES/);
    // The model's stream was closed there, not read to its end.
    expect(model.flooded).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a third completion in progress for one account with 429; another account is unaffected', async () => {
    model.use(() => ({ content: 'slow answer', stallMs: 1500 }));
    const held = Promise.all([post('tok-dave', { stream: true }).then(), post('tok-dave', { stream: true }).then()]);
    await until('both completions reached the model', () => model.bodies.length === 2);
    const third = await post('tok-dave', {});
    expect(third.status).toBe(429);
    expect(third.body.error).toMatchObject({ code: 'rate_limit_exceeded', type: 'rate_limit_error' });
    await post('tok-bob', {}).expect(200);
    await held;
    await post('tok-dave', {}).expect(200);
  });

  it('reads the model no faster than a client that reads nothing, and cuts that client off', async () => {
    model.use(() => ({ flood: { pieceBytes: 64 * 1024, totalBytes: 1024 * 1024 * 1024 } }));
    const response = await openStream('tok-bob');
    response.pause();
    // The stand-in writes until the flow control stops it; then nothing moves while the client reads nothing.
    let last = -1;
    await until('the stand-in is held back', async () => {
      const now = model.flooded;
      const settled = now === last && now > 0;
      last = now;
      // Time is the point: "held back" means no byte moved for 200 ms.
      if (!settled) await new Promise((resolve) => setTimeout(resolve, 200));
      return settled;
    });
    // Read as fast as it could be, the answer would have run to ANSWER_LIMIT.
    expect(model.flooded).toBeLessThan(ANSWER_LIMIT / 2);
    // CHAT_CLIENT_IDLE_MS later the client is cut off and the model call aborted: the stream never ends properly.
    await until('the model connection is closed', () => model.closed === 1);
    const received = await new Promise<string>((resolve) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (piece: string) => (text += piece));
      response.on('close', () => resolve(text));
      response.resume();
    });
    expect(received).not.toContain('data: [DONE]');
    await request(app.url).get('/health/live').expect(200);
  });

  it('streams OpenAI chunks with the text once and the role first; the seed fields when asked', async () => {
    model.use(() => ({ content: '糖尿病的治疗' }));
    const plain = framesOf((await post('tok-alice', { stream: true })).text);
    const withChoices = plain.filter((frame) => (frame.choices as unknown[]).length > 0);
    expect((withChoices[0].choices as { delta: { role?: string } }[])[0].delta.role).toBe('assistant');
    expect(withChoices.every((frame) => frame.delta === undefined)).toBe(true);

    const client = new OpenAI({ apiKey: 'tok-alice', baseURL: `${app.url}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions
      .stream({ model: 'standin-model', messages: [{ role: 'user', content: 'x' }] })
      .finalChatCompletion();
    expect(completion.choices[0].message).toMatchObject({ role: 'assistant', content: '糖尿病的治疗' });

    const seedRequests: { body: Record<string, unknown>; headers: Record<string, string> }[] = [
      { body: { stream_options: { include_tool_events: true } }, headers: {} },
      { body: {}, headers: { 'x-chat-events': 'seed' } },
    ];
    for (const asked of seedRequests) {
      const frames = framesOf((await post('tok-alice', { stream: true, ...asked.body }, asked.headers)).text);
      const content = frames.filter((frame) => frame.type === 'content');
      expect(content.map((frame) => (frame.delta as { content: string }).content).join('')).toBe('糖尿病的治疗');
      expect(frames.at(-1)).toMatchObject({ type: 'done' });
    }
  });

  /** A streamed completion over a raw connection, so the test decides when (and whether) to read. */
  function openStream(token: string): Promise<IncomingMessage> {
    const url = new URL('/v1/chat/completions', app.url);
    const body = JSON.stringify({ model: 'standin-model', stream: true, messages: [{ role: 'user', content: 'x' }] });
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        },
        resolve,
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }
});
