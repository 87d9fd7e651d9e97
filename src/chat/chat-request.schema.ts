import { z } from 'zod';

/** Bounds on a chat request, checked before any work (the body itself is capped at 4 MB by the parser). */
export const CHAT_LIMITS = {
  messages: 500,
  tools: 128,
  toolCalls: 128,
  contentParts: 256,
  toolNameLength: 64,
  /** Ids, names and other short strings: model, session_id, kn_id, user, tool call ids. */
  idLength: 256,
  /** Any text the body carries (message content, tool arguments, descriptions): the body's own cap. */
  textLength: 4 * 1024 * 1024,
  stopSequences: 16,
  stopLength: 1024,
} as const;

/** The texts of chat.json's `request` group a refusal names. */
export const REQUEST_TEXTS = [
  'bodyNotObject', 'notString', 'notBoolean', 'notNumber', 'numberRange', 'integerRange', 'emptyArray', 'tooMany',
  'tooLong', 'notObject', 'notOneOf', 'content', 'notArray', 'toolCall', 'orphanToolMessage', 'toolDefinition',
  'identifier', 'duplicateTool', 'parametersSchema', 'toolChoice', 'onlyOne', 'noLogprobs', 'stop',
  'responseFormat', 'unknownParameter', 'invalid',
] as const; // prettier-ignore
export type RequestText = (typeof REQUEST_TEXTS)[number];

/** A zod error customization whose message is the chat.json text the failure is refused with. */
export const refuse = (key: RequestText) => ({ error: key });

export const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
const IDENTIFIER = /^[A-Za-z0-9_-]{1,64}$/;

/** The configured bounds the schema is built with. */
export interface RequestBounds {
  /** Largest max_tool_rounds a request may ask for. */
  roundsCap: number;
  /** Largest max_tokens / max_completion_tokens (CHAT_MAX_OUTPUT_TOKENS). */
  maxOutputTokens: number;
}

export interface NumberBound {
  min: number;
  max: number;
  integer: boolean;
}

/** Every numeric field of the request and its bounds: the schema and the refusal's `{min}`-`{max}` both read them. */
export function numberBounds(bounds: RequestBounds): Record<string, NumberBound> {
  const outputTokens = { min: 1, max: bounds.maxOutputTokens, integer: true };
  return {
    temperature: { min: 0, max: 2, integer: false },
    top_p: { min: 0, max: 1, integer: false },
    presence_penalty: { min: -2, max: 2, integer: false },
    frequency_penalty: { min: -2, max: 2, integer: false },
    seed: { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, integer: true },
    max_tokens: outputTokens,
    max_completion_tokens: outputTokens,
    max_tool_rounds: { min: 0, max: bounds.roundsCap, integer: true },
  };
}

function boundedNumber({ min, max, integer }: NumberBound) {
  const refusal = integer ? refuse('integerRange') : refuse('numberRange');
  const number = z.number(refusal);
  return (integer ? number.int(refusal) : number).min(min, refusal).max(max, refusal).nullish();
}

const text = (max: number) => z.string(refuse('notString')).max(max, refuse('tooLong'));
const identifier = () => z.string(refuse('identifier')).regex(IDENTIFIER, refuse('identifier'));
const jsonObject = (key: RequestText) => z.record(z.string(), z.unknown(), refuse(key));

/** Content parts are passed through as given; each is an object naming its type. */
const contentPart = z.looseObject({ type: text(CHAT_LIMITS.idLength) }, refuse('notObject'));
const content = z.union(
  [text(CHAT_LIMITS.textLength), z.array(contentPart).max(CHAT_LIMITS.contentParts)],
  refuse('content'),
);

const toolCall = z.object(
  {
    id: text(CHAT_LIMITS.idLength),
    type: z.literal('function', refuse('toolCall')).nullish(),
    function: z.object(
      {
        name: text(CHAT_LIMITS.idLength),
        // Some clients send arguments as an object; they reach the model as JSON text.
        arguments: z.union([text(CHAT_LIMITS.textLength), jsonObject('toolCall')], refuse('toolCall')).nullish(),
      },
      refuse('toolCall'),
    ),
  },
  refuse('toolCall'),
);

const message = z.object(
  {
    role: z.enum(ROLES, refuse('notOneOf')),
    content: content.nullish(),
    name: text(CHAT_LIMITS.idLength).nullish(),
    tool_calls: z.array(toolCall, refuse('notArray')).max(CHAT_LIMITS.toolCalls, refuse('tooMany')).nullish(),
    tool_call_id: text(CHAT_LIMITS.idLength).nullish(),
  },
  refuse('notObject'),
);

/** A tool message answers a call of an earlier assistant message; only an assistant may send no content. */
const messages = z
  .array(message, refuse('emptyArray'))
  .min(1, refuse('emptyArray'))
  .max(CHAT_LIMITS.messages, refuse('tooMany'))
  .superRefine((entries, context) => {
    const calls = new Set<string>();
    entries.forEach((entry, index) => {
      if ((entry.content ?? null) === null && entry.role !== 'assistant') {
        context.addIssue({ code: 'custom', message: 'content', path: [index, 'content'] });
      }
      if (entry.role === 'assistant') entry.tool_calls?.forEach((call) => calls.add(call.id));
      if (entry.role === 'tool' && !calls.has(entry.tool_call_id ?? '')) {
        const params = { message: `messages[${index}]` };
        context.addIssue({ code: 'custom', message: 'orphanToolMessage', path: [index, 'tool_call_id'], params });
      }
    });
  });

const tool = z.object(
  {
    type: z.literal('function', refuse('toolDefinition')),
    function: z.object(
      {
        name: identifier(),
        description: text(CHAT_LIMITS.textLength).nullish(),
        parameters: jsonObject('parametersSchema').nullish(),
        strict: z.boolean(refuse('notBoolean')).nullish(),
      },
      refuse('toolDefinition'),
    ),
  },
  refuse('toolDefinition'),
);

const tools = z
  .array(tool, refuse('notArray'))
  .max(CHAT_LIMITS.tools, refuse('tooMany'))
  .superRefine((entries, context) => {
    const names = new Set<string>();
    entries.forEach((entry, index) => {
      const name = entry.function.name;
      if (names.has(name))
        context.addIssue({ code: 'custom', message: 'duplicateTool', path: [index], params: { name } });
      names.add(name);
    });
  })
  .nullish();

/** Whether a named tool exists is checked once the request's tools are known (ChatService). */
const toolChoice = z.union(
  [
    z.enum(['auto', 'none', 'required']),
    z.object({ type: z.literal('function'), function: z.object({ name: text(CHAT_LIMITS.idLength) }) }),
  ],
  refuse('toolChoice'),
);

/** OpenAI's three forms; json_schema's own fields pass through as given (the model endpoint reads them). */
const responseFormat = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('text') }),
    z.looseObject({ type: z.literal('json_object') }),
    z.looseObject({
      type: z.literal('json_schema'),
      json_schema: z.looseObject(
        {
          name: identifier(),
          description: text(CHAT_LIMITS.textLength).optional(),
          schema: jsonObject('parametersSchema').optional(),
          strict: z.boolean(refuse('notBoolean')).nullish(),
        },
        refuse('notObject'),
      ),
    }),
  ],
  refuse('responseFormat'),
);

const stopText = z.string(refuse('stop')).max(CHAT_LIMITS.stopLength, refuse('stop'));
const stop = z.union([stopText, z.array(stopText).max(CHAT_LIMITS.stopSequences)], refuse('stop'));

/** OpenAI's stream options; include_tool_events is this service's own (the stream's event mode). */
const streamOptions = z.object(
  {
    include_usage: z.boolean(refuse('notBoolean')).nullish(),
    include_obfuscation: z.boolean(refuse('notBoolean')).nullish(),
    include_tool_events: z.boolean(refuse('notBoolean')).nullish(),
  },
  refuse('notObject'),
);

/**
 * The one schema of `POST /v1/chat/completions`: OpenAI's chat-completions parameters this service
 * runs or forwards, plus its own (session_id, kn_id, max_tool_rounds). Null is accepted wherever a field
 * is optional and means absent, as OpenAI reads it. Unknown top-level fields are kept for the
 * passthrough decision (chat-request.ts).
 */
export function chatRequestSchema(bounds: RequestBounds) {
  const numbers = numberBounds(bounds);
  return z.looseObject(
    {
      model: text(CHAT_LIMITS.idLength).nullish(),
      messages,
      tools,
      tool_choice: toolChoice.nullish(),
      stream: z.boolean(refuse('notBoolean')).nullish(),
      stream_options: streamOptions.nullish(),
      temperature: boundedNumber(numbers.temperature),
      top_p: boundedNumber(numbers.top_p),
      presence_penalty: boundedNumber(numbers.presence_penalty),
      frequency_penalty: boundedNumber(numbers.frequency_penalty),
      seed: boundedNumber(numbers.seed),
      max_tokens: boundedNumber(numbers.max_tokens),
      max_completion_tokens: boundedNumber(numbers.max_completion_tokens),
      stop: stop.nullish(),
      response_format: responseFormat.nullish(),
      parallel_tool_calls: z.boolean(refuse('notBoolean')).nullish(),
      user: text(CHAT_LIMITS.idLength).nullish(),
      // One choice per answer: the tool loop continues one conversation.
      n: z.literal(1, refuse('onlyOne')).nullish(),
      // The answer does not carry the model's log probabilities, so asking for them is refused, not ignored.
      logprobs: z.literal(false, refuse('noLogprobs')).nullish(),
      top_logprobs: z.null(refuse('noLogprobs')).optional(),
      session_id: text(CHAT_LIMITS.idLength).nullish(),
      kn_id: text(CHAT_LIMITS.idLength).nullish(),
      max_tool_rounds: boundedNumber(numbers.max_tool_rounds),
    },
    refuse('bodyNotObject'),
  );
}

export type ChatRequestSchema = ReturnType<typeof chatRequestSchema>;
export type ChatRequestBody = z.output<ChatRequestSchema>;
