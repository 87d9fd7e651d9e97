/**
 * The chat door speaks OpenAI faithfully, driven by the `openai` npm client: the SDK's stream helper and
 * runTools, response_format json_schema, stop, seed, top_p, user and parallel_tool_calls reach the model
 * (the stand-in records what it received) on every call of a turn; n > 1, logprobs, a wrong type and an
 * output token count past CHAT_MAX_OUTPUT_TOKENS are 400s naming the field; an unknown field reaches the
 * model only when CHAT_PASSTHROUGH_FIELDS names it.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { startTestApp, TestApp } from './support/app';
import { LlmStandin, toolMessages } from './support/llm-standin';

const MAX_OUTPUT_TOKENS = 2048;
const USER = { role: 'user' as const, content: 'Which concepts relate to diabetes?' };
const ANSWER_SCHEMA = {
  type: 'json_schema' as const,
  json_schema: {
    name: 'concepts',
    strict: true,
    schema: {
      type: 'object',
      properties: { concepts: { type: 'array', items: { type: 'string' } } },
      required: ['concepts'],
      additionalProperties: false,
    },
  },
};

describe('chat completions speak OpenAI faithfully (e2e)', () => {
  const model = new LlmStandin();
  let app: TestApp;
  let openai: OpenAI;

  beforeAll(async () => {
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'tok-alice=alice:user',
      LLM_BASE_URL: await model.start(),
      CHAT_MAX_OUTPUT_TOKENS: String(MAX_OUTPUT_TOKENS),
      CHAT_PASSTHROUGH_FIELDS: 'reasoning_effort, chat_template_kwargs',
    });
    openai = new OpenAI({
      apiKey: 'tok-alice',
      baseURL: `${app.url}/v1`,
      maxRetries: 0,
      defaultHeaders: { 'accept-language': 'en-US' },
    });
  });

  afterAll(async () => {
    await app.close();
    await model.stop();
  });

  /** A request with fields the SDK's types do not know (this service's, or passthrough ones). */
  const create = (body: Record<string, unknown>) =>
    openai.chat.completions.create({
      model: 'standin-model',
      messages: [USER],
      ...body,
    } as ChatCompletionCreateParamsNonStreaming);

  /** The 400 a request is refused with, as the SDK reports it. */
  async function refusal(body: Record<string, unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
    model.use(() => ({ content: 'never asked' }));
    const error: unknown = await create(body).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(model.bodies).toHaveLength(0);
    return error as InstanceType<typeof OpenAI.APIError>;
  }

  it('stream(...).finalChatCompletion(): the sampling parameters reach the model beside the streaming ones', async () => {
    model.use(() => ({ content: 'Insulin and glucose.' }));
    const final = await openai.chat.completions
      .stream({
        model: 'standin-model',
        messages: [USER],
        temperature: 0.3,
        top_p: 0.8,
        seed: 1234,
        stop: ['END', '###'],
        user: 'analyst-7',
        max_completion_tokens: MAX_OUTPUT_TOKENS,
        presence_penalty: 0.5,
        frequency_penalty: -0.5,
      })
      .finalChatCompletion();

    expect(final.choices[0].message.content).toBe('Insulin and glucose.');
    expect(final.choices[0].finish_reason).toBe('stop');
    expect(model.bodies).toHaveLength(1);
    expect(model.bodies[0]).toMatchObject({
      model: 'standin-model',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.3,
      top_p: 0.8,
      seed: 1234,
      stop: ['END', '###'],
      user: 'analyst-7',
      max_completion_tokens: MAX_OUTPUT_TOKENS,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
    });
  });

  it('runTools(...): the client function runs in the SDK and its result continues the turn', async () => {
    model.use((body) => {
      const results = [...toolMessages(body).values()];
      if (results.length === 0)
        return { tool_calls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Lyon' } }] };
      return { content: `It is ${results[0]} in Lyon.` };
    });
    const calls: unknown[] = [];
    const runner = openai.chat.completions.runTools({
      model: 'standin-model',
      messages: [{ role: 'user', content: 'Weather in Lyon?' }],
      parallel_tool_calls: false,
      seed: 7,
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather in a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            parse: (text: string) => JSON.parse(text) as { city: string },
            function: (args: { city: string }) => {
              calls.push(args);
              return 'sunny';
            },
          },
        },
      ],
    });

    expect(await runner.finalContent()).toBe('It is sunny in Lyon.');
    expect(calls).toEqual([{ city: 'Lyon' }]);
    // One model call per SDK request: the first returned the client call, the second carried its result.
    expect(model.bodies).toHaveLength(2);
    for (const body of model.bodies) {
      expect(body).toMatchObject({ parallel_tool_calls: false, seed: 7 });
      expect(body.tools?.map((tool) => tool.function.name)).toContain('get_weather');
    }
    expect(toolMessages(model.bodies[1])).toEqual(new Map([['call_w', 'sunny']]));
  });

  it('response_format json_schema and seed reach every model call of a turn with a server tool round', async () => {
    model.use((body) =>
      toolMessages(body).size === 0
        ? { tool_calls: [{ name: 'kn_schema_search', arguments: { query: '糖尿病' } }] }
        : { content: '{"concepts":["diabetes"]}' },
    );
    const answer = await create({
      kn_id: 'clinic',
      response_format: ANSWER_SCHEMA,
      seed: 99,
      parallel_tool_calls: true,
    });

    expect(JSON.parse(answer.choices[0].message.content ?? '')).toEqual({ concepts: ['diabetes'] });
    expect(model.bodies).toHaveLength(2);
    for (const body of model.bodies) {
      expect(body.response_format).toEqual(ANSWER_SCHEMA);
      expect(body.seed).toBe(99);
      expect(body.parallel_tool_calls).toBe(true);
    }
  });

  it('parallel_tool_calls is not sent on a call that offers no tools (OpenAI refuses it there)', async () => {
    model.use(() => ({ content: 'plain' }));
    await create({ tool_choice: 'none', parallel_tool_calls: false, top_p: 0.5 });
    expect(model.bodies).toHaveLength(1);
    expect(model.bodies[0]).not.toHaveProperty('tools');
    expect(model.bodies[0]).not.toHaveProperty('parallel_tool_calls');
    expect(model.bodies[0].top_p).toBe(0.5);
  });

  it('a field CHAT_PASSTHROUGH_FIELDS names reaches the model as given; a null unknown field is ignored', async () => {
    model.use(() => ({ content: 'thought briefly' }));
    const kwargs = { enable_thinking: false };
    await create({ reasoning_effort: 'low', chat_template_kwargs: kwargs, metadata: null });
    expect(model.bodies[0]).toMatchObject({ reasoning_effort: 'low', chat_template_kwargs: kwargs });
    expect(model.bodies[0]).not.toHaveProperty('metadata');
  });

  it.each([
    ['n: 2', { n: 2 }, 'n'],
    ['temperature: "hot"', { temperature: 'hot' }, 'temperature'],
    ['max_tokens past CHAT_MAX_OUTPUT_TOKENS', { max_tokens: MAX_OUTPUT_TOKENS + 1 }, 'max_tokens'],
    ['max_completion_tokens past it', { max_completion_tokens: MAX_OUTPUT_TOKENS + 1 }, 'max_completion_tokens'],
    ['logprobs: true', { logprobs: true }, 'logprobs'],
    ['a field CHAT_PASSTHROUGH_FIELDS does not name', { store: true }, 'store'],
    ['a wrong stop', { stop: 42 }, 'stop'],
    [
      'a json_schema format without a name',
      { response_format: { type: 'json_schema', json_schema: {} } },
      'response_format.json_schema.name',
    ],
    ['a wrong role deep in the messages', { messages: [USER, { role: 'wizard', content: 'x' }] }, 'messages[1].role'],
  ])('%s → 400 invalid_request_error naming the field', async (_case, body, param) => {
    const error = await refusal(body);
    expect(error.status).toBe(400);
    expect(error.type).toBe('invalid_request_error');
    expect(error.param).toBe(param);
    expect(error.message).toContain(param);
  });

  it('the output token bound is named in the refusal', async () => {
    const error = await refusal({ max_tokens: 1_000_000 });
    expect(error.message).toContain(`from 1 to ${MAX_OUTPUT_TOKENS}`);
  });
});
