import type { OpenAPIObject } from '@nestjs/swagger';
import { isPrivatePath } from '../common/http/listeners';
import { PRIVATE_PREFIX, PUBLIC_PREFIX } from '../common/http/route-prefixes';
import { extraOperations, Operation, RESPONSE_SCHEMAS } from './extra-operations';
import { MCP_SESSION_EXAMPLE, OPERATION_EXAMPLES } from './operation-examples';
import { JsonSchema, OPENAI_ERROR } from './response-schemas';
import { hoistSchemaDefinitions } from './schema-hoisting';

/** Who may call an operation, which decides its security requirement and its error answers. */
export type OperationAccess = 'public' | 'private' | 'chat' | 'open';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const OPEN_PATHS = ['/health', '/metrics', '/.well-known/', '/console'];
const CHAT_PATHS = ['/v1/', '/api/chat/'];

const STATUS_TEXT: Record<string, string> = {
  '400': 'Invalid input: the details name the field',
  '401': 'No valid credentials',
  '403': 'The access policy denies this capability or network',
  '404': 'Unknown network, type, tool or route',
  '409': 'The action needs approval (confirm)',
  '413': 'Request body too large',
  '422': 'The tool ran and failed',
  '429': 'Rate limit or concurrency bound reached: retry after Retry-After',
  '500': 'Unexpected failure (the details carry the request id)',
  '502': 'An upstream answered with an error',
  '503': 'An upstream or the search queue is unavailable',
};

const ERRORS: Record<OperationAccess, string[]> = {
  public: ['400', '401', '403', '404', '413', '429', '500', '502', '503'],
  private: ['400', '401', '403', '404', '413', '429', '500', '502', '503'],
  chat: ['400', '401', '403', '404', '409', '413', '422', '429', '500', '502', '503'],
  open: [],
};

export function accessOf(path: string): OperationAccess {
  if (isPrivatePath(path)) return 'private';
  if (OPEN_PATHS.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)))
    return 'open';
  if (CHAT_PATHS.some((prefix) => path.startsWith(prefix))) return 'chat';
  return 'public';
}

/** `METHOD path` with the public or private prefix left out: the key of examples and extra schemas. */
export function operationKey(method: string, path: string): string {
  const bare = [PRIVATE_PREFIX, PUBLIC_PREFIX].reduce(
    (rest, prefix) => (rest.startsWith(`${prefix}/`) ? rest.slice(prefix.length) : rest),
    path,
  );
  return `${method.toUpperCase()} ${bare}`;
}

/**
 * Completes the document Nest's explorer builds: OpenAPI 3.1 with the package's version, the routes it
 * cannot see, and on every operation its security requirement (Bearer on public routes, none on private
 * and open ones), the account headers of private routes, an error body per status, its success schema
 * where the route declares none, and its example.
 */
export function completeDocument(document: OpenAPIObject, version: string, chatRequest: JsonSchema): OpenAPIObject {
  document.openapi = '3.1.0';
  document.info.version = version;
  const paths = document.paths as Record<string, Record<string, Operation>>;
  for (const [path, item] of Object.entries(extraOperations(chatRequest))) paths[path] = { ...item, ...paths[path] };
  document.components ??= {};
  document.components.schemas = { ...document.components.schemas, OpenAiError: OPENAI_ERROR };
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) completeOperation(operation, method, path);
    }
  }
  hoistSchemaDefinitions(document as unknown as Record<string, unknown>);
  return document;
}

function completeOperation(operation: Operation, method: string, path: string): void {
  const access = accessOf(path);
  const key = operationKey(method, path);
  operation.security = access === 'public' || access === 'chat' ? [{ bearer: [] }] : [];
  if (access === 'private') addAccountHeaders(operation);
  if (path.startsWith(`${PUBLIC_PREFIX}/mcp`)) addSessionHeader(operation, method);
  const success = successResponse(operation);
  const extra = RESPONSE_SCHEMAS[key];
  if (extra && !jsonContent(success)?.schema) success.content = { 'application/json': { schema: extra } };
  addExample(operation, success, key);
  const errorSchema = {
    $ref: access === 'chat' ? '#/components/schemas/OpenAiError' : '#/components/schemas/ErrorBodyDto',
  };
  for (const status of ERRORS[access]) {
    operation.responses[status] ??= {
      description: STATUS_TEXT[status],
      content: { 'application/json': { schema: errorSchema } },
    };
  }
}

function successResponse(operation: Operation): Record<string, unknown> {
  const status = Object.keys(operation.responses).find((code) => code.startsWith('2')) ?? '200';
  return (operation.responses[status] ??= { description: 'Success' });
}

function jsonContent(response: Record<string, unknown>): Record<string, unknown> | undefined {
  const content = response.content as Record<string, Record<string, unknown>> | undefined;
  return content?.['application/json'] ?? (content ? Object.values(content)[0] : undefined);
}

function addExample(operation: Operation, success: Record<string, unknown>, key: string): void {
  const example = OPERATION_EXAMPLES[key];
  if (!example) return;
  const body = operation.requestBody as { content?: Record<string, Record<string, unknown>> } | undefined;
  const target = example.request !== undefined ? body?.content?.['application/json'] : jsonContent(success);
  if (!target) return;
  target.examples = { demo: { summary: example.summary, value: example.request ?? example.response } };
}

function parameters(operation: Operation): Record<string, unknown>[] {
  return (operation.parameters ??= []) as Record<string, unknown>[];
}

function addHeader(operation: Operation, header: Record<string, unknown>): void {
  const list = parameters(operation);
  const name = String(header.name).toLowerCase();
  if (!list.some((entry) => entry.in === 'header' && String(entry.name).toLowerCase() === name)) list.push(header);
}

/** Private routes trust the platform's account headers instead of a token (the listener is in-cluster only). */
function addAccountHeaders(operation: Operation): void {
  addHeader(operation, {
    name: 'x-account-id',
    in: 'header',
    required: true,
    description: 'The account the call is made for (401 without it)',
    schema: { type: 'string' },
    example: 'u-1',
  });
  addHeader(operation, {
    name: 'x-account-type',
    in: 'header',
    required: false,
    description: 'The account type the access policy applies (user, app, agent …)',
    schema: { type: 'string' },
    example: 'user',
  });
}

function addSessionHeader(operation: Operation, method: string): void {
  addHeader(operation, {
    name: 'Mcp-Session-Id',
    in: 'header',
    required: method !== 'post',
    description: 'The session initialize answered with (stateful mode)',
    schema: { type: 'string' },
    example: MCP_SESSION_EXAMPLE,
  });
}
