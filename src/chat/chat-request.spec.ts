import { AppException } from '../common/errors/app.exception';
import { LocalizedDetails } from '../common/errors/localized-details';
import { localeFiles } from '../../test/support/unit/i18n';
import { LANGUAGES } from '../config/i18n.config';
import { ChatErrors } from './chat.errors';
import { CHAT_LIMITS, ChatRequestParser } from './chat-request';
import { REQUEST_TEXTS } from './chat-request.schema';

const ROUNDS_CAP = 8;
const MAX_OUTPUT_TOKENS = 4096;
const parser = new ChatRequestParser({
  roundsCap: ROUNDS_CAP,
  maxOutputTokens: MAX_OUTPUT_TOKENS,
  passthroughFields: ['reasoning_effort', 'chat_template_kwargs'],
});
const parseChatRequest = (body: unknown, _cap?: number) => parser.parse(body);
const MINIMAL = { tools: [], stream: false, forwarded: {}, passthrough: {} };
const USER = { role: 'user', content: 'Which suppliers ship to Lyon?' };
const SEARCH_TOOL = { type: 'function', function: { name: 'search', parameters: { type: 'object' } } };
const CALL = { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q":"Lyon"}' } };

/** The details of the 400 a body is refused with (`args.param` names the field, as OpenAI's `param`). */
function refusal(body: unknown): LocalizedDetails {
  let caught: unknown;
  try {
    parser.parse(body);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AppException);
  const error = caught as AppException;
  expect(error.definition).toBe(ChatErrors.InvalidRequest);
  expect(error.status).toBe(400);
  expect(error.details).toBeInstanceOf(LocalizedDetails);
  return error.details as LocalizedDetails;
}

const withMessages = (...messages: unknown[]) => ({ messages });

describe('parseChatRequest', () => {
  it('accepts a minimal request with defaults for everything optional', () => {
    expect(parseChatRequest({ messages: [USER] }, ROUNDS_CAP)).toEqual({
      ...MINIMAL,
      messages: [{ role: 'user', content: USER.content }],
    });
  });

  it('keeps every optional field it accepts', () => {
    const request = parseChatRequest(
      {
        model: 'gpt-x',
        messages: [{ role: 'system', content: 'Be brief.' }, USER],
        tools: [{ ...SEARCH_TOOL, function: { ...SEARCH_TOOL.function, description: 'Search the graph' } }],
        tool_choice: { type: 'function', function: { name: 'search', extra: true } },
        stream: true,
        stream_options: { include_usage: true, include_tool_events: true },
        temperature: 0,
        max_tokens: 1,
        max_tool_rounds: ROUNDS_CAP,
        session_id: 'sess_1',
        kn_id: 'kn-7',
        n: 1,
        logprobs: false,
      },
      ROUNDS_CAP,
    );
    expect(request).toEqual({
      model: 'gpt-x',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: USER.content },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'search', description: 'Search the graph', parameters: { type: 'object' } },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'search' } },
      stream: true,
      includeToolEvents: true,
      temperature: 0,
      max_tokens: 1,
      max_tool_rounds: ROUNDS_CAP,
      session_id: 'sess_1',
      kn_id: 'kn-7',
      forwarded: {},
      passthrough: {},
    });
  });

  it('treats an empty model as no model', () => {
    expect(parseChatRequest({ model: '', messages: [USER] }, ROUNDS_CAP).model).toBeUndefined();
  });

  it.each([null, 'text', 42, [USER]])('refuses the body %j without naming a param', (body) => {
    const details = refusal(body);
    expect(details).toEqual(new LocalizedDetails('chat.request.bodyNotObject', {}));
  });

  describe('messages', () => {
    it.each([
      ['missing', {}],
      ['not an array', { messages: USER }],
      ['empty', { messages: [] }],
      ['oversized', { messages: Array.from({ length: CHAT_LIMITS.messages + 1 }, () => USER) }],
    ])('refuses messages that are %s', (_case, body) => {
      expect(refusal(body).args.param).toBe('messages');
    });

    it(`accepts exactly ${CHAT_LIMITS.messages} messages`, () => {
      const messages = Array.from({ length: CHAT_LIMITS.messages }, () => USER);
      expect(parseChatRequest({ messages }, ROUNDS_CAP).messages).toHaveLength(CHAT_LIMITS.messages);
    });

    it('refuses an entry that is not an object', () => {
      expect(refusal(withMessages(USER, 'hello')).args.param).toBe('messages[1]');
    });

    it.each(['robot', 'function', '', undefined])('refuses the role %j', (role) => {
      const details = refusal(withMessages(USER, { role, content: 'x' }));
      expect(details).toEqual(
        new LocalizedDetails('chat.request.notOneOf', {
          param: 'messages[1].role',
          options: 'system, developer, user, assistant, tool',
        }),
      );
    });

    it.each([
      ['user', 42],
      ['user', null],
      ['user', undefined],
      ['system', { text: 'x' }],
      ['tool', null],
    ])('refuses a %s message with content %j', (role, content) => {
      expect(refusal(withMessages({ role, content })).args.param).toBe('messages[0].content');
    });

    it('passes content parts through as given, each an object naming its type', () => {
      const parts = [
        { type: 'text', text: 'Look' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
      ];
      const request = parseChatRequest(withMessages({ role: 'user', content: parts }), ROUNDS_CAP);
      expect(request.messages[0].content).toEqual(parts);
      expect(refusal(withMessages({ role: 'user', content: ['text'] })).args.param).toBe('messages[0].content');
    });

    it('allows an assistant message with null or missing content, stored as null', () => {
      const request = parseChatRequest(
        withMessages(USER, { role: 'assistant', content: null }, { role: 'assistant' }),
        ROUNDS_CAP,
      );
      expect(request.messages.slice(1)).toEqual([
        { role: 'assistant', content: null },
        { role: 'assistant', content: null },
      ]);
    });

    it('keeps a string name and refuses any other, naming it', () => {
      const request = parseChatRequest(withMessages({ ...USER, name: 'alice' }, USER), ROUNDS_CAP);
      expect(request.messages[0].name).toBe('alice');
      expect(request.messages[1]).not.toHaveProperty('name');
      expect(refusal(withMessages(USER, { ...USER, name: 7 }))).toEqual(
        new LocalizedDetails('chat.request.notString', { param: 'messages[1].name' }),
      );
    });

    it('drops message fields it does not use (refusal, annotations) instead of refusing them', () => {
      const request = parseChatRequest(
        withMessages(USER, { role: 'assistant', content: 'Hi', refusal: null, annotations: [] }),
        ROUNDS_CAP,
      );
      expect(request.messages[1]).toEqual({ role: 'assistant', content: 'Hi' });
    });
  });

  describe('tool calls and tool messages', () => {
    it('accepts a tool message answering a call of an earlier assistant message', () => {
      const request = parseChatRequest(
        withMessages(
          USER,
          { role: 'assistant', content: null, tool_calls: [CALL] },
          { role: 'tool', tool_call_id: 'call_1', content: '3 suppliers' },
        ),
        ROUNDS_CAP,
      );
      expect(request.messages[1].tool_calls).toEqual([CALL]);
      expect(request.messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '3 suppliers' });
    });

    it.each([
      ['no tool_call_id', { role: 'tool', content: 'x' }],
      ['an unknown tool_call_id', { role: 'tool', tool_call_id: 'call_9', content: 'x' }],
      ['a numeric tool_call_id', { role: 'tool', tool_call_id: 1, content: 'x' }],
    ])('refuses a tool message with %s', (_case, toolMessage) => {
      const details = refusal(
        withMessages(USER, { role: 'assistant', content: null, tool_calls: [CALL] }, toolMessage),
      );
      expect(details.args.param).toBe('messages[2].tool_call_id');
    });

    it('refuses a tool message that answers a call made only later', () => {
      const details = refusal(
        withMessages(
          USER,
          { role: 'tool', tool_call_id: 'call_1', content: 'x' },
          { role: 'assistant', content: null, tool_calls: [CALL] },
        ),
      );
      expect(details.args.param).toBe('messages[1].tool_call_id');
    });

    it('refuses tool_calls that are not an array', () => {
      const details = refusal(withMessages(USER, { role: 'assistant', content: null, tool_calls: CALL }));
      expect(details.args.param).toBe('messages[1].tool_calls');
    });

    it.each([
      ['a string', 'call_1', ''],
      ['no id', { type: 'function', function: { name: 'search' } }, '.id'],
      ['a numeric id', { id: 1, function: { name: 'search' } }, '.id'],
      ['no function', { id: 'call_1' }, '.function'],
      ['no function name', { id: 'call_1', function: { arguments: '{}' } }, '.function.name'],
      ['a custom tool call', { id: 'call_1', type: 'custom', function: { name: 'search' } }, '.type'],
    ])('refuses a tool call that is %s, naming the field', (_case, call, field) => {
      const details = refusal(withMessages(USER, { role: 'assistant', content: null, tool_calls: [CALL, call] }));
      expect(details.args.param).toBe(`messages[1].tool_calls[1]${field}`);
    });

    it('turns object arguments into JSON text and missing arguments into {}', () => {
      const request = parseChatRequest(
        withMessages(USER, {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', function: { name: 'search', arguments: { q: 'Lyon', limit: 3 } } },
            { id: 'call_2', function: { name: 'list_files' } },
          ],
        }),
        ROUNDS_CAP,
      );
      const calls = request.messages[1].tool_calls!;
      expect(calls).toEqual([
        { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q":"Lyon","limit":3}' } },
        { id: 'call_2', type: 'function', function: { name: 'list_files', arguments: '{}' } },
      ]);
      expect(JSON.parse(calls[0].function.arguments)).toEqual({ q: 'Lyon', limit: 3 });
    });
  });

  describe('tools', () => {
    it('refuses tools that are not an array, or too many', () => {
      expect(refusal({ messages: [USER], tools: SEARCH_TOOL }).args.param).toBe('tools');
      const tools = Array.from({ length: CHAT_LIMITS.tools + 1 }, (_, index) => ({
        type: 'function',
        function: { name: `tool_${index}` },
      }));
      expect(refusal({ messages: [USER], tools }).args.param).toBe('tools');
    });

    it.each([
      ['a string', 'search', 'tools[1]', 'toolDefinition'],
      ['not function-typed', { type: 'retrieval', function: { name: 'search' } }, 'tools[1].type', 'toolDefinition'],
      ['missing its function', { type: 'function' }, 'tools[1].function', 'toolDefinition'],
      [
        'missing its name',
        { type: 'function', function: { description: 'x' } },
        'tools[1].function.name',
        'identifier',
      ],
    ])('refuses a tool that is %s', (_case, tool, param, key) => {
      expect(refusal({ messages: [USER], tools: [SEARCH_TOOL, tool] })).toEqual(
        new LocalizedDetails(`chat.request.${key}`, { param }),
      );
    });

    it.each([
      ['empty', ''],
      ['with a space', 'has space'],
      ['with a dot', 'dotted.name'],
      ['not ASCII', 'naïve'],
      ['65 characters long', 'x'.repeat(65)],
      ['a number', 42],
    ])('refuses a tool name that is %s', (_case, name) => {
      const details = refusal({ messages: [USER], tools: [{ type: 'function', function: { name } }] });
      expect(details).toEqual(new LocalizedDetails('chat.request.identifier', { param: 'tools[0].function.name' }));
    });

    it('accepts names of letters, digits, _ and - up to 64 characters', () => {
      const names = ['get-Weather_2', 'x'.repeat(64)];
      const request = parseChatRequest(
        { messages: [USER], tools: names.map((name) => ({ type: 'function', function: { name } })) },
        ROUNDS_CAP,
      );
      expect(request.tools.map((tool) => tool.function.name)).toEqual(names);
    });

    it('refuses a tool name given twice, naming the second', () => {
      const details = refusal({ messages: [USER], tools: [SEARCH_TOOL, SEARCH_TOOL] });
      expect(details.args).toEqual({ param: 'tools[1]', name: 'search' });
    });

    it.each(['object', ['type'], 5])('refuses parameters %j', (parameters) => {
      const details = refusal({ messages: [USER], tools: [{ type: 'function', function: { name: 'f', parameters } }] });
      expect(details.args.param).toBe('tools[0].function.parameters');
    });
  });

  describe('tool_choice', () => {
    it.each(['auto', 'none', 'required'])('accepts %s', (choice) => {
      expect(parseChatRequest({ messages: [USER], tool_choice: choice }, ROUNDS_CAP).tool_choice).toBe(choice);
    });

    it.each([
      'any',
      42,
      { type: 'function' },
      { type: 'function', function: {} },
      { type: 'tool', function: { name: 'search' } },
    ])('refuses %j', (choice) => {
      expect(refusal({ messages: [USER], tool_choice: choice }).args.param).toBe('tool_choice');
    });
  });

  describe('numbers and strings', () => {
    it.each([
      ['temperature', 'above 2', 3],
      ['temperature', 'negative', -0.1],
      ['temperature', 'a string', '1'],
      ['temperature', 'NaN', Number.NaN],
      ['max_tokens', '0', 0],
      ['max_tokens', 'fractional', 1.5],
      ['max_tokens', 'above CHAT_MAX_OUTPUT_TOKENS', MAX_OUTPUT_TOKENS + 1],
      ['max_completion_tokens', 'above CHAT_MAX_OUTPUT_TOKENS', MAX_OUTPUT_TOKENS + 1],
      ['max_completion_tokens', '0', 0],
      ['top_p', 'above 1', 1.5],
      ['presence_penalty', 'below -2', -3],
      ['frequency_penalty', 'a string', 'high'],
      ['seed', 'fractional', 4.2],
      ['seed', 'beyond a safe integer', 2 ** 60],
      ['max_tool_rounds', 'above the cap', ROUNDS_CAP + 1],
      ['max_tool_rounds', 'negative', -1],
      ['max_tool_rounds', 'fractional', 2.5],
    ])('refuses %s %s', (field, _case, value) => {
      expect(refusal({ messages: [USER], [field]: value }).args.param).toBe(field);
    });

    it('accepts the bounds themselves', () => {
      const low = parseChatRequest({ messages: [USER], temperature: 0, max_tool_rounds: 0 }, ROUNDS_CAP);
      const high = parseChatRequest(
        { messages: [USER], temperature: 2, max_tokens: MAX_OUTPUT_TOKENS, max_tool_rounds: ROUNDS_CAP },
        ROUNDS_CAP,
      );
      expect(low).toMatchObject({ temperature: 0, max_tool_rounds: 0 });
      expect(high).toMatchObject({ temperature: 2, max_tokens: MAX_OUTPUT_TOKENS, max_tool_rounds: ROUNDS_CAP });
    });

    it.each([
      ['session_id', 'a number', 42],
      ['session_id', 'an object', { id: 'x' }],
      ['session_id', 'longer than 256 characters', 'x'.repeat(257)],
      ['kn_id', 'a boolean', true],
      ['model', 'a number', 7],
      ['model', 'longer than 256 characters', 'm'.repeat(257)],
      ['stream', 'a string', 'yes'],
    ])('refuses %s that is %s', (field, _case, value) => {
      expect(refusal({ messages: [USER], [field]: value }).args.param).toBe(field);
    });

    it('treats null optional fields as absent', () => {
      const request = parseChatRequest(
        {
          messages: [USER],
          model: null,
          stream: null,
          tools: null,
          tool_choice: null,
          temperature: null,
          max_tokens: null,
          max_tool_rounds: null,
          session_id: null,
          kn_id: null,
          top_p: null,
          stop: null,
          seed: null,
          response_format: null,
          n: null,
          logprobs: null,
          top_logprobs: null,
          stream_options: null,
          an_unknown_field: null,
        },
        ROUNDS_CAP,
      );
      expect(request).toEqual({ ...MINIMAL, messages: [{ role: 'user', content: USER.content }] });
    });
  });

  describe('forwarded OpenAI parameters', () => {
    const schemaFormat = {
      type: 'json_schema',
      json_schema: { name: 'answer', schema: { type: 'object' }, strict: true, extension: 'kept' },
    };

    it('forwards each known parameter as given', () => {
      const forwarded = {
        top_p: 0.9,
        stop: ['END', '###'],
        seed: 42,
        presence_penalty: -0.5,
        frequency_penalty: 1.5,
        response_format: schemaFormat,
        max_completion_tokens: MAX_OUTPUT_TOKENS,
        parallel_tool_calls: false,
        user: 'user-17',
      };
      expect(parseChatRequest({ messages: [USER], ...forwarded }).forwarded).toEqual(forwarded);
    });

    it.each([{ type: 'text' }, { type: 'json_object' }])('accepts the response format %j', (format) => {
      expect(parseChatRequest({ messages: [USER], response_format: format }).forwarded.response_format).toEqual(format);
    });

    it('accepts a single stop string', () => {
      expect(parseChatRequest({ messages: [USER], stop: 'END' }).forwarded.stop).toBe('END');
    });

    it.each([
      ['an unknown type', { type: 'yaml' }, 'response_format.type', 'responseFormat'],
      ['not an object', 'json', 'response_format', 'responseFormat'],
      [
        'a json_schema without a name',
        { type: 'json_schema', json_schema: {} },
        'response_format.json_schema.name',
        'identifier',
      ],
      [
        'a json_schema whose schema is a list',
        { type: 'json_schema', json_schema: { name: 'a', schema: [] } },
        'response_format.json_schema.schema',
        'parametersSchema',
      ],
    ])('refuses a response_format that is %s, naming the field', (_case, format, param, key) => {
      expect(refusal({ messages: [USER], response_format: format })).toEqual(
        new LocalizedDetails(`chat.request.${key}`, { param }),
      );
    });

    it.each([
      ['a number', 7, 'stop'],
      ['too many sequences', Array.from({ length: CHAT_LIMITS.stopSequences + 1 }, () => 'x'), 'stop'],
      ['an overlong sequence', ['ok', 'x'.repeat(CHAT_LIMITS.stopLength + 1)], 'stop[1]'],
    ])('refuses stop that is %s', (_case, stop, param) => {
      expect(refusal({ messages: [USER], stop })).toEqual(
        new LocalizedDetails('chat.request.stop', {
          param,
          limit: CHAT_LIMITS.stopSequences,
          length: CHAT_LIMITS.stopLength,
        }),
      );
    });

    it.each([
      ['parallel_tool_calls', 'yes', 'notBoolean'],
      ['user', 17, 'notString'],
      ['user', 'u'.repeat(CHAT_LIMITS.idLength + 1), 'tooLong'],
    ])('refuses %s %j with the text %s', (field, value, key) => {
      expect(refusal({ messages: [USER], [field]: value }).key).toBe(`chat.request.${key}`);
    });

    it('names the bounds of a numeric field, the output token bound being the configured one', () => {
      expect(refusal({ messages: [USER], max_completion_tokens: MAX_OUTPUT_TOKENS + 1 })).toEqual(
        new LocalizedDetails('chat.request.integerRange', {
          param: 'max_completion_tokens',
          min: 1,
          max: MAX_OUTPUT_TOKENS,
        }),
      );
      expect(refusal({ messages: [USER], temperature: 'hot' })).toEqual(
        new LocalizedDetails('chat.request.numberRange', { param: 'temperature', min: 0, max: 2 }),
      );
    });

    it.each([2, 0, '1'])('refuses n %j, naming n', (n) => {
      expect(refusal({ messages: [USER], n })).toEqual(new LocalizedDetails('chat.request.onlyOne', { param: 'n' }));
    });

    it.each([
      ['logprobs', true],
      ['top_logprobs', 3],
    ])('refuses %s %j: the answer would not carry them', (field, value) => {
      expect(refusal({ messages: [USER], [field]: value })).toEqual(
        new LocalizedDetails('chat.request.noLogprobs', { param: field }),
      );
    });

    it('reads stream_options, refusing a wrong type by its path', () => {
      const request = parseChatRequest({ messages: [USER], stream: true, stream_options: { include_usage: true } });
      expect(request).not.toHaveProperty('includeToolEvents');
      expect(request.forwarded).toEqual({});
      expect(parseChatRequest({ messages: [USER], stream_options: { include_tool_events: false } })).toMatchObject({
        includeToolEvents: false,
      });
      expect(refusal({ messages: [USER], stream_options: { include_usage: 'yes' } })).toEqual(
        new LocalizedDetails('chat.request.notBoolean', { param: 'stream_options.include_usage' }),
      );
    });
  });

  describe('unknown top-level fields', () => {
    it('passes through the fields the policy names, as given', () => {
      const kwargs = { enable_thinking: false };
      const request = parseChatRequest({ messages: [USER], reasoning_effort: 'low', chat_template_kwargs: kwargs });
      expect(request.passthrough).toEqual({ reasoning_effort: 'low', chat_template_kwargs: kwargs });
      expect(request.forwarded).toEqual({});
    });

    it('refuses any other, naming it', () => {
      expect(refusal({ messages: [USER], store: true })).toEqual(
        new LocalizedDetails('chat.request.unknownParameter', { param: 'store' }),
      );
    });

    it('never lets a passthrough name replace a known field', () => {
      const permissive = new ChatRequestParser({
        roundsCap: 1,
        maxOutputTokens: 10,
        passthroughFields: ['max_tokens'],
      });
      expect(() => permissive.parse({ messages: [USER], max_tokens: 11 })).toThrow(AppException);
      expect(permissive.parse({ messages: [USER], max_tokens: 10 })).toMatchObject({ max_tokens: 10, passthrough: {} });
    });
  });

  it.each(LANGUAGES.flatMap((language) => REQUEST_TEXTS.map((key) => [language, key])))(
    '%s has the text chat.request.%s',
    async (language, key) => {
      const text = (await localeFiles()).translate(`chat.request.${key}`, { lang: language });
      expect(text).not.toBe(`chat.request.${key}`);
    },
  );
});
