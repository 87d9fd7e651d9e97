/**
 * Chat completions through the `openai` npm client against an OpenAI-compatible stand-in model:
 * plain answers, server tool rounds (kn_search on clinic), parallel calls, client and confirm tools,
 * tool_choice, the round cap and the repeat guard; the stream as the SDK and as the seed's client read
 * it; workspaces; disconnects; and the error shapes.
 */
import { existsSync, mkdtempSync, readdirSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import OpenAI from 'openai';
import request from 'supertest';
import { startTestApp, TestApp } from './support/app';
import { LlmStandin, toolMessages } from './support/llm-standin';
import { until } from './support/until';
import { Workspaces } from '../src/chat/workspace/workspaces';
import { accountFolderName } from '../src/chat/workspace/workspace-paths';

const TOKENS = 'tok-alice=alice:user,tok-bob=bob:user';

describe('chat completions (e2e)', () => {
  const model = new LlmStandin();
  let app: TestApp;
  let openai: OpenAI;
  let workspaceRoot: string;

  beforeAll(async () => {
    const llmUrl = await model.start();
    workspaceRoot = mkdtempSync(path.join(tmpdir(), 'chat-ws-'));
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: TOKENS,
      LLM_BASE_URL: llmUrl,
      WORKSPACE_ROOT: workspaceRoot,
      WORKSPACE_MAX_FILE_BYTES: '2048',
      CHAT_TOOL_POLICY: JSON.stringify({ user: { auto: ['@read_only', 'read_file', 'list_files'] } }),
    });
    openai = new OpenAI({ apiKey: 'tok-alice', baseURL: `${app.url}/v1`, maxRetries: 0 });
  });

  afterAll(async () => {
    await app.close();
    await model.stop();
  });

  const ask = (content: string, extra: Record<string, unknown> = {}) =>
    openai.chat.completions.create({
      model: 'standin-model',
      messages: [{ role: 'user', content }],
      ...extra,
    } as never) as unknown as Promise<
      OpenAI.Chat.Completions.ChatCompletion & { tool_execution: Record<string, unknown> }
    >;

  it('answers a plain question through the model and reports no tool execution', async () => {
    model.use(() => ({ content: '你好，我是助手。' }));
    const answer = await ask('你好');
    expect(answer.choices[0].message.content).toBe('你好，我是助手。');
    expect(answer.choices[0].finish_reason).toBe('stop');
    expect(answer.tool_execution).toMatchObject({ executed: false, tools_called: [] });
    // A turn without session_id names a workspace under the root, but creates none: no workspace tool ran.
    expect(answer.tool_execution.workspace_path).toBe(
      `${workspaceRoot}/${accountFolderName('alice')}/${String(answer.tool_execution.session_id)}`,
    );
    expect(readdirSync(workspaceRoot)).toEqual([]);
    expect(answer.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(model.bodies[0].tools?.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(['kn_search', 'read_file']),
    );
  });

  it('runs kn_search server-side and the answer carries what only the tool knew', async () => {
    const rest = await request(app.url)
      .post('/api/agent-retrieval/v1/kn/kn_search')
      .set('authorization', 'Bearer tok-alice')
      .set('x-kn-id', 'clinic')
      .send({ query: '糖尿病' })
      .expect(200);
    const fact = (rest.body.object_types as { concept_name: string }[])[0].concept_name;
    model.use((body) => {
      const results = [...toolMessages(body).values()];
      if (results.length === 0)
        return { tool_calls: [{ name: 'kn_search', arguments: { query: '糖尿病', response_format: 'json' } }] };
      const parsed = JSON.parse(results[0]) as { object_types: { concept_name: string }[] };
      return { content: `知识网络中的第一个概念是 ${parsed.object_types[0].concept_name}` };
    });
    const answer = await ask('糖尿病相关的概念有哪些？', { kn_id: 'clinic' });
    expect(answer.choices[0].message.content).toContain(fact);
    expect(answer.tool_execution).toMatchObject({
      executed: true,
      tools_called: ['kn_search'],
      rounds: 1,
      truncated: false,
    });
    expect(answer.usage?.total_tokens).toBe(30);
  });

  it('runs two rounds, then two calls in one round whose results both reach the model', async () => {
    model.use((body, turn) => {
      if (turn === 1) return { tool_calls: [{ name: 'kn_search', arguments: { query: '高血压' } }] };
      if (turn === 2) {
        return {
          tool_calls: [
            { name: 'kn_schema_search', arguments: { query: '患者' } },
            { name: 'kn_search', arguments: { query: '处方', only_schema: true } },
          ],
        };
      }
      return { content: `saw ${toolMessages(body).size} tool results` };
    });
    const answer = await ask('question', { kn_id: 'clinic' });
    expect(answer.tool_execution).toMatchObject({
      rounds: 2,
      tools_called: ['kn_search', 'kn_schema_search', 'kn_search'],
    });
    expect(toolMessages(model.bodies[2]).size).toBe(3);
    expect(answer.choices[0].message.content).toBe('saw 3 tool results');
  });

  it('a client tool ends the turn with finish_reason tool_calls; the client result continues it', async () => {
    const weather = {
      type: 'function' as const,
      function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    };
    model.use((body) => {
      const results = toolMessages(body);
      if (results.size === 0)
        return { tool_calls: [{ id: 'call_w', name: 'get_weather', arguments: { city: '北京' } }] };
      return { content: `天气：${results.get('call_w')}` };
    });
    const first = await ask('北京天气', { tools: [weather] });
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    const call = first.choices[0].message.tool_calls![0] as {
      id: string;
      function: { name: string; arguments: string };
    };
    expect(call).toMatchObject({ id: 'call_w', function: { name: 'get_weather', arguments: '{"city":"北京"}' } });
    const second = await openai.chat.completions.create({
      model: 'standin-model',
      tools: [weather],
      messages: [
        { role: 'user', content: '北京天气' },
        { role: 'assistant', content: null, tool_calls: [call as never] },
        { role: 'tool', tool_call_id: 'call_w', content: '晴 25°C' },
      ],
    });
    expect(second.choices[0].message.content).toBe('天气：晴 25°C');
  });

  it('tool_choice none sends no tools and runs none', async () => {
    model.use((body) => ({ content: body.tools ? 'tools were offered' : 'no tools' }));
    const answer = await ask('hi', { tool_choice: 'none' });
    expect(answer.choices[0].message.content).toBe('no tools');
  });

  it('a confirm tool (write_file under this policy) is returned to the client, not run', async () => {
    model.use(() => ({ tool_calls: [{ name: 'write_file', arguments: { path: 'note.txt', content: 'x' } }] }));
    const answer = await ask('save a note', { session_id: 'sess-confirm' });
    expect(answer.choices[0].finish_reason).toBe('tool_calls');
    expect(answer.choices[0].message.tool_calls?.[0]).toMatchObject({ function: { name: 'write_file' } });
    expect(answer.tool_execution).toMatchObject({ executed: false });
    await request(app.url)
      .post('/v1/tools/read_file/call')
      .set('authorization', 'Bearer tok-alice')
      .send({ arguments: { path: 'note.txt' }, session_id: 'sess-confirm' })
      .expect(422);
  });

  it('the round cap ends with a text answer from a call without tools, truncated', async () => {
    model.use((body, turn) =>
      body.tools
        ? { tool_calls: [{ name: 'kn_schema_search', arguments: { query: `q${turn}` } }] }
        : { content: 'final without tools' },
    );
    const answer = await ask('loop', { kn_id: 'clinic', max_tool_rounds: 2 });
    expect(answer.choices[0].message.content).toBe('final without tools');
    expect(answer.tool_execution).toMatchObject({ rounds: 2, truncated: true });
    expect(model.bodies.at(-1)?.tools).toBeUndefined();
  });

  it('the same call three rounds in a row stops the loop with a clear message', async () => {
    model.use(() => ({ tool_calls: [{ name: 'kn_schema_search', arguments: { query: 'same' } }] }));
    const answer = await ask('repeat', { kn_id: 'clinic' });
    expect(answer.choices[0].message.content).toMatch(
      /^Stopped: the model called kn_schema_search with the same arguments 3 times/,
    );
    expect(answer.tool_execution).toMatchObject({ rounds: 2 });
  });

  it('streams frames the openai SDK and the seed client both read, ending with [DONE]', async () => {
    model.use((body) =>
      toolMessages(body).size === 0
        ? { content: '让我查一下。', tool_calls: [{ name: 'kn_schema_search', arguments: { query: '糖尿病' } }] }
        : { content: '查到了相关概念。' },
    );
    const stream = await openai.chat.completions.create({
      model: 'standin-model',
      stream: true,
      messages: [{ role: 'user', content: '糖尿病' }],
      kn_id: 'clinic',
    } as never);
    let sdkText = '';
    let sdkFinish: string | null = null;
    for await (const chunk of stream as unknown as AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
      sdkText += chunk.choices[0]?.delta?.content ?? '';
      sdkFinish = chunk.choices[0]?.finish_reason ?? sdkFinish;
    }
    expect(sdkText).toBe('让我查一下。查到了相关概念。');
    expect(sdkFinish).toBe('stop');

    // The seed's own client, asking for the seed's fields: split lines, JSON.parse every `data: ` line
    // (except [DONE]), switch on `type`.
    const raw = await fetch(`${app.url}/api/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer tok-alice', 'x-chat-events': 'seed' },
      body: JSON.stringify({ messages: [{ role: 'user', content: '糖尿病' }], stream: true, kn_id: 'clinic' }),
    });
    expect(raw.headers.get('content-type')).toContain('text/event-stream');
    const lines = (await raw.text()).split('\n').filter((line) => line.startsWith('data: '));
    expect(lines.at(-1)).toBe('data: [DONE]');
    const frames = lines.slice(0, -1).map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    for (const frame of frames) expect(frame.object).toBe('chat.completion.chunk');
    // Every frame names the completion, as OpenAI's chunks do: one id from the first frame to done.
    expect(new Set(frames.map((frame) => frame.id))).toEqual(new Set([frames.at(-1)!.id]));
    expect(frames[0].id).toMatch(/^chatcmpl-/);
    const types = frames.map((frame) => frame.type);
    expect(types).toEqual(expect.arrayContaining(['content', 'tool_call', 'tool_result', 'done']));
    expect(types.indexOf('tool_result')).toBeGreaterThan(types.indexOf('tool_call'));
    const result = frames.find((frame) => frame.type === 'tool_result') as {
      result: { success: boolean; content: string };
    };
    expect(result.result.success).toBe(true);
    const done = frames.at(-1) as { type: string; finish_reason: string; tool_execution: { tools_called: string[] } };
    expect(done).toMatchObject({
      type: 'done',
      finish_reason: 'stop',
      tool_execution: { tools_called: ['kn_schema_search'] },
    });
  });

  it('a client disconnect mid-stream aborts the model request and starts no tool', async () => {
    model.use(() => ({
      content: 'a long answer that never finishes',
      stallMs: 30_000,
      tool_calls: [{ name: 'kn_search', arguments: { query: 'x' } }],
    }));
    const controller = new AbortController();
    const response = await fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer tok-alice' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'x' }], stream: true, kn_id: 'clinic' }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    // The model's stall outlasts the test unless the service hangs up on it; its tool call is never sent.
    await until('the service closed the model connection', () => model.closed === 1, 2500);
    await until('the stand-in gave up its answer', () => model.answered === 1);
    expect(model.bodies).toHaveLength(1);
  });

  describe('workspaces through the tool execution API', () => {
    const call = (token: string, name: string, body: Record<string, unknown>) =>
      request(app.url).post(`/v1/tools/${name}/call`).set('authorization', `Bearer ${token}`).send(body);

    it('write_file then read_file in one session; another session does not see it', async () => {
      await call('tok-alice', 'write_file', {
        arguments: { path: 'notes/a.txt', content: '血糖 6.1' },
        session_id: 'sess-a',
      }).expect(200);
      const read = await call('tok-alice', 'read_file', {
        arguments: { path: 'notes/a.txt' },
        session_id: 'sess-a',
      }).expect(200);
      expect(read.body).toMatchObject({ tool: 'read_file', session_id: 'sess-a', content: '血糖 6.1' });
      const other = await call('tok-alice', 'read_file', {
        arguments: { path: 'notes/a.txt' },
        session_id: 'sess-b',
      }).expect(422);
      expect(other.body.error).toMatchObject({
        type: 'tool_execution_error',
        code: 'tool_failed',
        tool_name: 'read_file',
      });
    });

    it("another account using the same session_id gets a workspace of its own and cannot see the first one's files", async () => {
      const response = await call('tok-bob', 'read_file', {
        arguments: { path: 'notes/a.txt' },
        session_id: 'sess-a',
      }).expect(422);
      expect(response.body.error).toMatchObject({
        code: 'tool_failed',
        detail_code: 'agentRetrieval.NotFound.WorkspacePathNotFound',
      });
      const listed = await call('tok-bob', 'list_files', { arguments: {}, session_id: 'sess-a' }).expect(200);
      expect(listed.body).toMatchObject({ session_id: 'sess-a', content: '[]' });
      expect(existsSync(path.join(workspaceRoot, accountFolderName('bob'), 'sess-a'))).toBe(true);
      expect(existsSync(path.join(workspaceRoot, accountFolderName('alice'), 'sess-a', 'notes', 'a.txt'))).toBe(true);
    });

    it.each(['../escape.txt', '/etc/passwd', 'notes/../../x'])(
      'rejects the path %s as a tool error',
      async (target) => {
        const response = await call('tok-alice', 'read_file', {
          arguments: { path: target },
          session_id: 'sess-a',
        }).expect(422);
        expect(response.body.error.code).toBe('tool_failed');
      },
    );

    it('rejects a symbolic link that points out of the workspace', async () => {
      symlinkSync(tmpdir(), path.join(workspaceRoot, accountFolderName('alice'), 'sess-a', 'outside'));
      const response = await call('tok-alice', 'list_files', {
        arguments: { path: 'outside' },
        session_id: 'sess-a',
      }).expect(422);
      expect(response.body.error.code).toBe('tool_failed');
      expect(JSON.stringify(response.body)).not.toContain(tmpdir());
    });

    it('removes a workspace once it has been idle past WORKSPACE_TTL_S', async () => {
      await call('tok-alice', 'write_file', {
        arguments: { path: 'x.txt', content: 'x' },
        session_id: 'sess-old',
      }).expect(200);
      const folder = path.join(workspaceRoot, accountFolderName('alice'), 'sess-old');
      const longAgo = new Date(Date.now() - 3 * 86400 * 1000);
      utimesSync(path.join(folder, '.touched'), longAgo, longAgo);
      utimesSync(folder, longAgo, longAgo);
      const removed = await app.app.get(Workspaces).sweep();
      expect(removed).toContain(`${accountFolderName('alice')}/sess-old`);
      expect(existsSync(folder)).toBe(false);
      expect(existsSync(path.join(workspaceRoot, accountFolderName('alice'), 'sess-a'))).toBe(true);
    });

    it('rejects an oversize write with a clear tool error, in the caller’s language', async () => {
      const write = { arguments: { path: 'big.txt', content: 'x'.repeat(5000) }, session_id: 'sess-a' };
      const response = await call('tok-alice', 'write_file', write).set('X-Language', 'en-US').expect(422);
      expect(response.body.error.message).toMatch(
        /^Tool execution failed: write_file: write of 5000 bytes exceeds the \d+-byte file limit$/,
      );
      const chinese = await call('tok-alice', 'write_file', write).set('X-Language', 'zh-CN').expect(422);
      expect(chinese.body.error.message).toMatch(
        /^工具执行失败: write_file：写入 5000 字节超过了单个文件 \d+ 字节的上限$/,
      );
    });

    it('unknown tool → tool_not_found, worded in the caller’s language', async () => {
      const response = await call('tok-alice', 'no_such_tool', { arguments: {} })
        .set('X-Language', 'en-US')
        .expect(404);
      expect(response.body).toEqual({
        error: {
          message: 'Tool not found: no server tool named no_such_tool is available to this caller',
          type: 'invalid_request_error',
          code: 'tool_not_found',
        },
      });
      const chinese = await call('tok-alice', 'no_such_tool', { arguments: {} }).set('X-Language', 'zh-CN').expect(404);
      expect(chinese.body.error).toMatchObject({
        message: expect.stringMatching(/^工具不存在: /),
        code: 'tool_not_found',
      });
    });
  });

  describe('errors in the OpenAI shape', () => {
    const post = (body: unknown) =>
      request(app.url)
        .post('/v1/chat/completions')
        .set('authorization', 'Bearer tok-alice')
        .send(body as object);

    it.each([
      ['a wrong role', { messages: [{ role: 'wizard', content: 'x' }] }],
      [
        'a tool message without a matching call',
        {
          messages: [
            { role: 'user', content: 'x' },
            { role: 'tool', tool_call_id: 'nope', content: 'y' },
          ],
        },
      ],
      ['no messages', { messages: [] }],
      ['a bad tool_choice', { messages: [{ role: 'user', content: 'x' }], tool_choice: 'sometimes' }],
    ])('%s → 400 invalid_request_error', async (_name, body) => {
      const response = await post(body).expect(400);
      expect(response.body.error).toMatchObject({ type: 'invalid_request_error' });
      expect(typeof response.body.error.message).toBe('string');
    });

    it('a 10 MB body → 413 in the OpenAI shape', async () => {
      const response = await post({ messages: [{ role: 'user', content: 'x'.repeat(10 * 1024 * 1024) }] }).expect(413);
      expect(response.body.error).toMatchObject({ type: 'invalid_request_error', code: 'Public.PayloadTooLarge' });
    });

    it('no token → 401 in the OpenAI shape with WWW-Authenticate', async () => {
      const response = await request(app.url).post('/v1/chat/completions').send({ messages: [] }).expect(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.body.error.type).toBe('authentication_error');
    });

    it('/v1/models lists the model endpoint models', async () => {
      const models = await openai.models.list();
      expect(models.data.map((entry) => entry.id)).toEqual(['standin-model']);
    });

    it('the model endpoint down → 502', async () => {
      const down = await startTestApp({
        AUTH_MODE: 'none',
        LLM_BASE_URL: 'http://127.0.0.1:1',
        LLM_RETRIES: '0',
        LLM_MODEL: 'm',
      });
      try {
        const response = await request(down.url)
          .post('/v1/chat/completions')
          .send({ messages: [{ role: 'user', content: 'x' }] })
          .expect(502);
        expect(response.body.error.type).toBe('api_error');
      } finally {
        await down.close();
      }
    });

    it('no model configured → 503 model_unavailable naming LLM_BASE_URL', async () => {
      const none = await startTestApp({ AUTH_MODE: 'none' });
      try {
        const response = await request(none.url)
          .post('/v1/chat/completions')
          .send({ messages: [{ role: 'user', content: 'x' }] })
          .expect(503);
        expect(response.body.error).toMatchObject({ type: 'service_unavailable', code: 'model_unavailable' });
        expect(response.body.error.message).toContain('LLM_BASE_URL');
      } finally {
        await none.close();
      }
    });
  });
});
