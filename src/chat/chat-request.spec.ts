import { AppException } from '../common/errors/app.exception';
import { LocalizedDetails } from '../common/errors/localized-details';
import { ChatErrors } from './chat.errors';
import { CHAT_LIMITS, parseChatRequest } from './chat-request';

const ROUNDS_CAP = 8;
const USER = { role: 'user', content: 'Which suppliers ship to Lyon?' };
const SEARCH_TOOL = { type: 'function', function: { name: 'search', parameters: { type: 'object' } } };
const CALL = { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q":"Lyon"}' } };

/** The details of the 400 a body is refused with (`args.param` names the field, as OpenAI's `param`). */
function refusal(body: unknown): LocalizedDetails {
  let caught: unknown;
  try {
    parseChatRequest(body, ROUNDS_CAP);
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
      ['a string', 'call_1'],
      ['no id', { type: 'function', function: { name: 'search' } }],
      ['a numeric id', { id: 1, function: { name: 'search' } }],
      ['no function', { id: 'call_1' }],
      ['no function name', { id: 'call_1', function: { arguments: '{}' } }],
    ])('refuses a tool call that is %s', (_case, call) => {
      const details = refusal(withMessages(USER, { role: 'assistant', content: null, tool_calls: [CALL, call] }));
      expect(details.args.param).toBe('messages[1].tool_calls[1]');
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
      ['a string', 'search'],
      ['not function-typed', { type: 'retrieval', function: { name: 'search' } }],
      ['missing its function', { type: 'function' }],
      ['missing its name', { type: 'function', function: { description: 'x' } }],
    ])('refuses a tool that is %s', (_case, tool) => {
      expect(refusal({ messages: [USER], tools: [SEARCH_TOOL, tool] }).args.param).toBe('tools[1]');
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
      expect(details.args.param).toBe('tools[0]');
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
      ['max_tokens', 'above 1,000,000', 1_000_001],
      ['max_tool_rounds', 'above the cap', ROUNDS_CAP + 1],
      ['max_tool_rounds', 'negative', -1],
      ['max_tool_rounds', 'fractional', 2.5],
    ])('refuses %s %s', (field, _case, value) => {
      expect(refusal({ messages: [USER], [field]: value }).args.param).toBe(field);
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
        },
        ROUNDS_CAP,
      );
      expect(request).toEqual({ messages: [{ role: 'user', content: USER.content }], tools: [], stream: false });
    });
  });
});
