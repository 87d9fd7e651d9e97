import { PUBLIC_PREFIX } from '../common/http/route-prefixes';
import { MCP_PATH } from '../mcpserver/mcp-paths';
import {
  API_KEY_LIST,
  API_KEY_VIEW,
  CHAT_COMPLETION,
  CREATED_API_KEY,
  FUNCTION_TOOL_LIST,
  HEALTH,
  JSON_RPC_MESSAGE,
  JsonSchema,
  MCP_INFO,
  MCP_TOOL_RESULT,
  MODEL_LIST,
  PROTECTED_RESOURCE,
  TOOL_CALL_BODY,
  TOOL_CALL_RESULT,
  TOOLBOX_RESULT,
} from './response-schemas';

/** An OpenAPI operation as this module writes it (plain JSON, completed later like every other). */
export type Operation = Record<string, unknown> & { responses: Record<string, Record<string, unknown>> };

const json = (schema: JsonSchema): Record<string, unknown> => ({ 'application/json': { schema } });
const ok = (description: string, schema: JsonSchema, status = '200'): Operation['responses'] => ({
  [status]: { description, content: json(schema) },
});

/**
 * The routes Nest's explorer does not describe: the OpenAI-compatible door, the MCP endpoint (a
 * transport, described rather than modelled), health probes and metrics. Keyed by path, then method.
 */
export function extraOperations(chatRequest: JsonSchema): Record<string, Record<string, Operation>> {
  const completions = (operationId: string, note = ''): Operation => ({
    operationId,
    tags: ['chat'],
    summary: `OpenAI-compatible chat completions with server-side tools${note}`,
    description:
      'The request is validated by the same schema the service uses; kn_id picks the network the server ' +
      'tools read, session_id the workspace. stream: true answers text/event-stream.',
    requestBody: { required: true, content: json(chatRequest) },
    responses: {
      '200': {
        description: 'The completion (or an event stream of chunks)',
        content: { ...json(CHAT_COMPLETION), 'text/event-stream': { schema: { type: 'string' } } },
      },
    },
  });
  const probe = (operationId: string, summary: string): Record<string, Operation> => ({
    get: { operationId, tags: ['health'], summary, responses: ok('Healthy', HEALTH) },
  });
  const mcp = (method: string, summary: string, responses: Operation['responses']): Operation => ({
    operationId: `mcp_${method}`,
    tags: ['mcp'],
    summary,
    description:
      'The MCP Streamable HTTP endpoint (protocol revisions 2025-03-26 to 2026-07-28): connect an MCP client ' +
      'here rather than calling it by hand. Tools, resources and prompts are listed by the protocol itself.',
    responses,
  });
  return {
    '/v1/chat/completions': { post: completions('chat_completions') },
    '/api/chat/completions': { post: completions('chat_completions_compat', ' (the original path, same behaviour)') },
    '/v1/models': {
      get: {
        operationId: 'chat_models',
        tags: ['chat'],
        summary: 'The models chat can use',
        responses: ok('Models', MODEL_LIST),
      },
    },
    '/v1/tools': {
      get: {
        operationId: 'chat_tools',
        tags: ['chat'],
        summary: 'The server tools this caller may use, as OpenAI function definitions',
        parameters: [{ name: 'session_id', in: 'query', required: false, schema: { type: 'string' } }],
        responses: ok('Function definitions', FUNCTION_TOOL_LIST),
      },
    },
    '/v1/tools/{name}/call': {
      post: {
        operationId: 'chat_tool_call',
        tags: ['chat'],
        summary: 'Run one server tool yourself (manual mode), in the session workspace',
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: json(TOOL_CALL_BODY) },
        responses: ok('The tool result as text', TOOL_CALL_RESULT),
      },
    },
    [MCP_PATH]: {
      post: mcp('post', 'Send JSON-RPC messages (initialize, tools/list, tools/call, …)', {
        '200': {
          description: 'JSON-RPC responses, as JSON or as an event stream',
          content: { ...json(JSON_RPC_MESSAGE), 'text/event-stream': { schema: { type: 'string' } } },
        },
        '202': { description: 'Notifications and responses accepted' },
      }),
      get: mcp('get', 'Open the server-to-client event stream of a session', {
        '200': { description: 'Server-sent events', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      }),
      delete: mcp('delete', 'End a session', { '200': { description: 'Session ended' } }),
    },
    '/health': probe('health', 'Every health indicator'),
    '/health/live': probe('health_live', 'Liveness: the process answers'),
    '/health/alive': probe('health_alive', 'Liveness (alias)'),
    '/health/ready': probe('health_ready', 'Readiness: dependencies up, networks loaded (503 otherwise)'),
    '/console': {
      get: {
        operationId: 'console',
        tags: ['console'],
        summary: 'The web console (a page; sign in with a token or API key)',
        responses: { '200': { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } } },
      },
    },
    '/console/assets/{name}': {
      get: {
        operationId: 'console_asset',
        tags: ['console'],
        summary: 'A script, style sheet or font of the web console (hashed names, cached for a year)',
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'The asset', content: { 'application/javascript': { schema: { type: 'string' } } } },
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: ['metrics'],
        summary: 'Prometheus metrics (text exposition format)',
        responses: { '200': { description: 'Metrics', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
  };
}

/** Answers of documented operations that no schema of their own describes, keyed like the examples. */
export const RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  'POST /admin/api-keys': CREATED_API_KEY,
  'GET /admin/api-keys': API_KEY_LIST,
  'GET /admin/api-keys/{key_id}': API_KEY_VIEW,
  'DELETE /admin/api-keys/{key_id}': API_KEY_VIEW,
  'POST /mcp/proxy/{mcp_id}/tools/{tool_name}/call': MCP_TOOL_RESULT,
  'POST /tool-box/{box_id}/proxy/{tool_id}': TOOLBOX_RESULT,
  'GET /.well-known/oauth-protected-resource': PROTECTED_RESOURCE,
  'GET /mcp/info': MCP_INFO,
  [`GET /.well-known/oauth-protected-resource${PUBLIC_PREFIX}/mcp`]: PROTECTED_RESOURCE,
};
