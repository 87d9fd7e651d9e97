/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>;

/**
 * JSON Schemas of the answers that no zod schema describes (the capabilities' answers come from their
 * `output` schemas): admin views, proxies, health, the OpenAI-compatible door and error bodies.
 */
const nullableString: JsonSchema = { type: ['string', 'null'] };

const API_KEY_FIELDS: Record<string, JsonSchema> = {
  key_id: { type: 'string' },
  account_id: { type: 'string' },
  account_type: { type: 'string' },
  name: nullableString,
  status: { type: 'string', enum: ['active', 'expired', 'revoked'] },
  created_at: { type: 'string', format: 'date-time' },
  created_by: nullableString,
  expires_at: nullableString,
  last_used_at: nullableString,
  revoked_at: nullableString,
};
const API_KEY_REQUIRED = ['key_id', 'account_id', 'account_type', 'status', 'created_at'];

export const API_KEY_VIEW: JsonSchema = { type: 'object', required: API_KEY_REQUIRED, properties: API_KEY_FIELDS };

export const API_KEY_LIST: JsonSchema = {
  type: 'object',
  required: ['keys'],
  properties: { keys: { type: 'array', items: API_KEY_VIEW } },
};

export const CREATED_API_KEY: JsonSchema = {
  type: 'object',
  required: [...API_KEY_REQUIRED, 'key'],
  properties: {
    ...API_KEY_FIELDS,
    key: { type: 'string', description: 'ar_<key id>_<secret>: shown in this answer only' },
  },
};

export const PROTECTED_RESOURCE: JsonSchema = {
  type: 'object',
  required: ['resource', 'bearer_methods_supported', 'resource_name'],
  properties: {
    resource: { type: 'string', format: 'uri' },
    authorization_servers: { type: 'array', items: { type: 'string', format: 'uri' } },
    bearer_methods_supported: { type: 'array', items: { type: 'string' } },
    resource_name: { type: 'string' },
  },
};

export const MCP_TOOL_RESULT: JsonSchema = {
  type: 'object',
  description: "The MCP server's CallToolResult, passed through unchanged",
  properties: {
    content: { type: 'array', items: { type: 'object' } },
    structuredContent: { type: 'object' },
    isError: { type: 'boolean' },
  },
};

export const TOOLBOX_RESULT: JsonSchema = {
  type: 'object',
  required: ['status_code', 'headers'],
  description: "The tool endpoint's own status, headers and body",
  properties: {
    status_code: { type: 'integer' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    body: {},
  },
};

export const HEALTH: JsonSchema = {
  type: 'object',
  required: ['status'],
  description: 'Terminus health report: each indicator under info (up) or error (down), all under details',
  properties: {
    status: { type: 'string', enum: ['ok', 'error', 'shutting_down'] },
    info: { type: 'object' },
    error: { type: 'object' },
    details: { type: 'object' },
  },
};

export const OPENAI_ERROR: JsonSchema = {
  type: 'object',
  required: ['error'],
  description: 'The OpenAI error shape, which every route of the chat door answers with',
  properties: {
    error: {
      type: 'object',
      required: ['message', 'type'],
      properties: {
        message: { type: 'string' },
        type: { type: 'string', example: 'invalid_request_error' },
        param: nullableString,
        code: nullableString,
      },
    },
  },
};

export const CHAT_COMPLETION: JsonSchema = {
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices'],
  description:
    'An OpenAI chat.completion (with stream: true, text/event-stream of chat.completion.chunk frames, ' +
    'then data: [DONE]), plus tool_execution: the server tools this turn ran',
  properties: {
    id: { type: 'string' },
    object: { type: 'string', enum: ['chat.completion'] },
    created: { type: 'integer' },
    model: { type: 'string' },
    choices: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          index: { type: 'integer' },
          message: { type: 'object', properties: { role: { type: 'string' }, content: nullableString } },
          finish_reason: nullableString,
        },
      },
    },
    usage: { type: 'object' },
    tool_execution: { type: 'object' },
  },
};

export const MODEL_LIST: JsonSchema = {
  type: 'object',
  required: ['object', 'data'],
  properties: {
    object: { type: 'string', enum: ['list'] },
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'object'],
        properties: {
          id: { type: 'string' },
          object: { type: 'string', enum: ['model'] },
          created: { type: 'integer' },
          owned_by: { type: 'string' },
        },
      },
    },
  },
};

export const FUNCTION_TOOL_LIST: JsonSchema = {
  type: 'object',
  required: ['object', 'data'],
  properties: {
    object: { type: 'string', enum: ['list'] },
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'function'],
        properties: {
          type: { type: 'string', enum: ['function'] },
          function: {
            type: 'object',
            required: ['name', 'parameters'],
            properties: { name: { type: 'string' }, description: { type: 'string' }, parameters: { type: 'object' } },
          },
        },
      },
    },
  },
};

export const TOOL_CALL_BODY: JsonSchema = {
  type: 'object',
  properties: {
    arguments: { type: 'object', description: "The tool's arguments, as GET /v1/tools describes them" },
    session_id: { type: 'string', description: 'The chat session whose workspace the tool works in' },
    kn_id: { type: 'string', description: 'The network the tool reads' },
  },
};

export const TOOL_CALL_RESULT: JsonSchema = {
  type: 'object',
  required: ['tool', 'session_id', 'content'],
  properties: {
    tool: { type: 'string' },
    session_id: { type: 'string' },
    content: { type: 'string', description: 'The result as the chat model would read it' },
  },
};

export const JSON_RPC_MESSAGE: JsonSchema = {
  type: 'object',
  required: ['jsonrpc'],
  description: 'A JSON-RPC 2.0 message of the MCP Streamable HTTP transport (or a batch of them)',
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { type: ['string', 'integer'] },
    method: { type: 'string' },
    params: { type: 'object' },
    result: { type: 'object' },
    error: { type: 'object' },
  },
};

/** `GET /mcp/info`: the MCP server and the caller's catalogue, as the protocol's list methods give them. */
export const MCP_INFO: JsonSchema = {
  type: 'object',
  required: ['server', 'tools'],
  properties: {
    server: { type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' } } },
    instructions: { type: 'string' },
    tools: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
    prompts: { type: 'array', items: { type: 'object' } },
    resourceTemplates: { type: 'array', items: { type: 'object' } },
  },
};
