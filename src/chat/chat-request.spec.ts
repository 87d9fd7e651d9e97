import { ChatError } from './chat-error';
import { CHAT_LIMITS, parseChatRequest } from './chat-request';

const ROUNDS_CAP = 8;
const USER = { role: 'user', content: 'Which suppliers ship to Lyon?' };
const SEARCH_TOOL = { type: 'function', function: { name: 'search', parameters: { type: 'object' } } };
const CALL = { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q":"Lyon"}' } };

/** The 400 a body is refused with, checked for the OpenAI error shape. */
function refusal(body: unknown): ChatError {
  let caught: unknown;
  try {
    parseChatRequest(body, ROUNDS_CAP);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ChatError);
  const error = caught as ChatError;
  expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'invalid_request' });
  return error;
}

const withMessages = (...messages: unknown[]) => ({ messages });

describe('parseChatRequest', () => {
  it('accepts a minimal request with defaults for everything optional', () => {
    expect(parseChatRequest({ messages: [USER] }, ROUNDS_CAP)).toEqual({
      messages: [{ role: 'user', content: USER.content }],
      tools: [],
      stream: false,
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
        temperature: 0,
        max_tokens: 1,
        max_tool_rounds: ROUNDS_CAP,
        session_id: 'sess_1',
        kn_id: 'kn-7',
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
      temperature: 0,
      max_tokens: 1,
      max_tool_rounds: ROUNDS_CAP,
      session_id: 'sess_1',
      kn_id: 'kn-7',
    });
  });

  it('treats an empty model as no model', () => {
    expect(parseChatRequest({ model: '', messages: [USER] }, ROUNDS_CAP).model).toBeUndefined();
  });

  it.each([null, 'text', 42, [USER]])('refuses the body %j without naming a param', (body) => {
    const error = refusal(body);
    expect(error.message).toBe('the body must be a JSON object');
    expect(error.extra).toEqual({});
  });

  describe('messages', () => {
    it.each([
      ['missing', {}],
      ['not an array', { messages: USER }],
      ['empty', { messages: [] }],
      ['oversized', { messages: Array.from({ length: CHAT_LIMITS.messages + 1 }, () => USER) }],
    ])('refuses messages that are %s', (_case, body) => {
      expect(refusal(body).extra).toEqual({ param: 'messages' });
    });

    it(`accepts exactly ${CHAT_LIMITS.messages} messages`, () => {
      const messages = Array.from({ length: CHAT_LIMITS.messages }, () => USER);
      expect(parseChatRequest({ messages }, ROUNDS_CAP).messages).toHaveLength(CHAT_LIMITS.messages);
    });

    it('refuses an entry that is not an object', () => {
      expect(refusal(withMessages(USER, 'hello')).extra).toEqual({ param: 'messages[1]' });
    });

    it.each(['robot', 'function', '', undefined])('refuses the role %j', (role) => {
      const error = refusal(withMessages(USER, { role, content: 'x' }));
      expect(error.extra).toEqual({ param: 'messages[1].role' });
      expect(error.message).toContain('system, developer, user, assistant, tool');
    });

    it.each([
      ['user', 42],
      ['user', null],
      ['user', undefined],
      ['system', { text: 'x' }],
      ['tool', null],
    ])('refuses a %s message with content %j', (role, content) => {
      expect(refusal(withMessages({ role, content })).extra).toEqual({ param: 'messages[0].content' });
    });

    it('passes content parts through as given', () => {
      const parts = [{ type: 'text', text: 'Look' }];
      expect(parseChatRequest(withMessages({ role: 'user', content: parts }), ROUNDS_CAP).messages[0].content).toBe(
        parts,
      );
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

    it('keeps a string name and drops any other', () => {
      const request = parseChatRequest(withMessages({ ...USER, name: 'alice' }, { ...USER, name: 7 }), ROUNDS_CAP);
      expect(request.messages[0].name).toBe('alice');
      expect(request.messages[1]).not.toHaveProperty('name');
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
      const error = refusal(withMessages(USER, { role: 'assistant', content: null, tool_calls: [CALL] }, toolMessage));
      expect(error.extra).toEqual({ param: 'messages[2].tool_call_id' });
    });

    it('refuses a tool message that answers a call made only later', () => {
      const error = refusal(
        withMessages(
          USER,
          { role: 'tool', tool_call_id: 'call_1', content: 'x' },
          { role: 'assistant', content: null, tool_calls: [CALL] },
        ),
      );
      expect(error.extra).toEqual({ param: 'messages[1].tool_call_id' });
    });

    it('refuses tool_calls that are not an array', () => {
      const error = refusal(withMessages(USER, { role: 'assistant', content: null, tool_calls: CALL }));
      expect(error.extra).toEqual({ param: 'messages[1].tool_calls' });
    });

    it.each([
      ['a string', 'call_1'],
      ['no id', { type: 'function', function: { name: 'search' } }],
      ['a numeric id', { id: 1, function: { name: 'search' } }],
      ['no function', { id: 'call_1' }],
      ['no function name', { id: 'call_1', function: { arguments: '{}' } }],
    ])('refuses a tool call that is %s', (_case, call) => {
      const error = refusal(withMessages(USER, { role: 'assistant', content: null, tool_calls: [CALL, call] }));
      expect(error.extra).toEqual({ param: 'messages[1].tool_calls[1]' });
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
      expect(refusal({ messages: [USER], tools: SEARCH_TOOL }).extra).toEqual({ param: 'tools' });
      const tools = Array.from({ length: CHAT_LIMITS.tools + 1 }, (_, index) => ({
        type: 'function',
        function: { name: `tool_${index}` },
      }));
      expect(refusal({ messages: [USER], tools }).extra).toEqual({ param: 'tools' });
    });

    it.each([
      ['a string', 'search'],
      ['not function-typed', { type: 'retrieval', function: { name: 'search' } }],
      ['missing its function', { type: 'function' }],
      ['missing its name', { type: 'function', function: { description: 'x' } }],
    ])('refuses a tool that is %s', (_case, tool) => {
      expect(refusal({ messages: [USER], tools: [SEARCH_TOOL, tool] }).extra).toEqual({ param: 'tools[1]' });
    });

    it.each([
      ['empty', ''],
      ['with a space', 'has space'],
      ['with a dot', 'dotted.name'],
      ['not ASCII', 'naïve'],
      ['65 characters long', 'x'.repeat(65)],
      ['a number', 42],
    ])('refuses a tool name that is %s', (_case, name) => {
      const error = refusal({ messages: [USER], tools: [{ type: 'function', function: { name } }] });
      expect(error.extra).toEqual({ param: 'tools[0]' });
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
      const error = refusal({ messages: [USER], tools: [SEARCH_TOOL, SEARCH_TOOL] });
      expect(error.extra).toEqual({ param: 'tools[1]' });
      expect(error.message).toContain('search');
    });

    it.each(['object', ['type'], 5])('refuses parameters %j', (parameters) => {
      const error = refusal({ messages: [USER], tools: [{ type: 'function', function: { name: 'f', parameters } }] });
      expect(error.extra).toEqual({ param: 'tools[0].function.parameters' });
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
      expect(refusal({ messages: [USER], tool_choice: choice }).extra).toEqual({ param: 'tool_choice' });
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
      ['max_tokens', 'above 1,000,000', 1_000_001],
      ['max_tool_rounds', 'above the cap', ROUNDS_CAP + 1],
      ['max_tool_rounds', 'negative', -1],
      ['max_tool_rounds', 'fractional', 2.5],
    ])('refuses %s %s', (field, _case, value) => {
      expect(refusal({ messages: [USER], [field]: value }).extra).toEqual({ param: field });
    });

    it('accepts the bounds themselves', () => {
      const low = parseChatRequest({ messages: [USER], temperature: 0, max_tool_rounds: 0 }, ROUNDS_CAP);
      const high = parseChatRequest(
        { messages: [USER], temperature: 2, max_tokens: 1_000_000, max_tool_rounds: ROUNDS_CAP },
        ROUNDS_CAP,
      );
      expect(low).toMatchObject({ temperature: 0, max_tool_rounds: 0 });
      expect(high).toMatchObject({ temperature: 2, max_tokens: 1_000_000, max_tool_rounds: ROUNDS_CAP });
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
      expect(refusal({ messages: [USER], [field]: value }).extra).toEqual({ param: field });
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
        },
        ROUNDS_CAP,
      );
      expect(request).toEqual({ messages: [{ role: 'user', content: USER.content }], tools: [], stream: false });
    });
  });
});
