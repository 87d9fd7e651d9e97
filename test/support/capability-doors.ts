import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import type { CapabilityDefinition, Door } from '../../src/capabilities/capability';
import { advertisedInput } from '../../src/capabilities/capability-input';
import { PRIVATE_PREFIX, PUBLIC_PREFIX } from '../../src/common/http/route-prefixes';
import { LlmStandin } from './llm-standin';

/** Who calls: a static token for the public doors, the x-account-* headers for the private prefix. */
export interface Caller {
  token: string;
  accountId: string;
  accountType: string;
}

/** What one door answered, reduced to what every door can say: it ran, or it was refused with a code. */
export interface Observation {
  door: Door;
  outcome: 'ok' | 'error';
  code?: string;
  /** chat: a denied tool is neither offered to the model nor run. */
  offered?: boolean;
}

/** The doors that run a capability for a caller, each in its own protocol. */
export interface Doors {
  baseUrl: string;
  mcp(caller: Caller): Promise<Client>;
  model: LlmStandin;
}

const OK_STATUS = /^2\d\d$/;

export async function callDoor(
  doors: Doors,
  door: Door,
  definition: CapabilityDefinition,
  caller: Caller,
  input: Record<string, unknown>,
): Promise<Observation> {
  switch (door) {
    case 'rest':
      return callRest(doors.baseUrl, definition, caller, input);
    case 'mcp':
      return callMcp(await doors.mcp(caller), definition, input);
    case 'tool-api':
      return callToolApi(doors.baseUrl, definition, caller, input);
    case 'chat':
      return callChat(doors, definition, caller, input);
    default:
      throw new Error(`no test client for door ${door}`);
  }
}

async function callRest(
  baseUrl: string,
  definition: CapabilityDefinition,
  caller: Caller,
  input: Record<string, unknown>,
): Promise<Observation> {
  const rest = definition.rest!;
  const isPrivate = rest.prefixes === 'private';
  // A path parameter (`:kn_id`) takes the input's value of the same name.
  const routePath = rest.path.replace(/:(\w+)/g, (_match, name: string) =>
    encodeURIComponent(String(input[name] ?? '')),
  );
  const url = `${isPrivate ? PRIVATE_PREFIX : PUBLIC_PREFIX}/${routePath}`;
  let call = rest.method === 'GET' ? request(baseUrl).get(url).query(queryOf(input)) : request(baseUrl).post(url);
  call = isPrivate
    ? call.set('x-account-id', caller.accountId).set('x-account-type', caller.accountType)
    : call.set('authorization', `Bearer ${caller.token}`);
  const response = rest.method === 'GET' ? await call : await call.send(input);
  if (OK_STATUS.test(String(response.status))) return { door: 'rest', outcome: 'ok' };
  return { door: 'rest', outcome: 'error', code: (response.body as { code?: string }).code };
}

function queryOf(input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
}

async function callMcp(client: Client, definition: CapabilityDefinition, input: Record<string, unknown>) {
  try {
    const result = await client.callTool({ name: definition.name, arguments: input });
    if (!result.isError) return { door: 'mcp' as const, outcome: 'ok' as const };
    const code = (result._meta as Record<string, unknown> | undefined)?.['agent-retrieval/error_code'];
    return { door: 'mcp' as const, outcome: 'error' as const, code: String(code) };
  } catch (error) {
    if (error instanceof McpError)
      return { door: 'mcp' as const, outcome: 'error' as const, code: `jsonrpc:${error.code}` };
    throw error;
  }
}

async function callToolApi(
  baseUrl: string,
  definition: CapabilityDefinition,
  caller: Caller,
  input: Record<string, unknown>,
): Promise<Observation> {
  const response = await request(baseUrl)
    .post(`/v1/tools/${definition.name}/call`)
    .set('authorization', `Bearer ${caller.token}`)
    .send({ arguments: input, session_id: `parity-${caller.accountId}` });
  if (response.status === 200) return { door: 'tool-api', outcome: 'ok' };
  const error = (response.body as { error?: { code?: string; detail_code?: string } }).error;
  return { door: 'tool-api', outcome: 'error', code: error?.detail_code ?? error?.code };
}

interface StreamFrame {
  type?: string;
  name?: string;
  result?: { success: boolean; content: string };
  finish_reason?: string;
}

/**
 * The model calls the capability once, then answers in text; the stream's tool_result frame says whether
 * the call ran and what it answered (an error body's code). A call that is never run (denied: not even
 * offered) ends the turn with finish_reason tool_calls and no tool_result.
 */
async function callChat(
  doors: Doors,
  definition: CapabilityDefinition,
  caller: Caller,
  input: Record<string, unknown>,
): Promise<Observation> {
  doors.model.use((body) =>
    body.messages.some((message) => message.role === 'tool')
      ? { content: 'done' }
      : { tool_calls: [{ name: definition.name, arguments: input }] },
  );
  const response = await fetch(`${doors.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${caller.token}` },
    body: JSON.stringify({
      messages: [{ role: 'user', content: `call ${definition.name}` }],
      stream: true,
      session_id: `parity-${caller.accountId}`,
    }),
  });
  const frames = (await response.text())
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as StreamFrame);
  const offered = (doors.model.bodies[0]?.tools ?? []).some((tool) => tool.function.name === definition.name);
  const result = frames.find((frame) => frame.type === 'tool_result' && frame.name === definition.name)?.result;
  if (!result) return { door: 'chat', outcome: 'error', code: offered ? 'not_run' : 'not_offered', offered };
  if (result.success) return { door: 'chat', outcome: 'ok', offered };
  return { door: 'chat', outcome: 'error', code: codeOf(result.content), offered };
}

/** The code of an error body the model read; a capability that words its own failures has none. */
function codeOf(content: string): string | undefined {
  try {
    const body = JSON.parse(content) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

/** A value of the wrong JSON type for a schema property. */
export function wrongType(schema: Record<string, unknown>): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  return type === 'string' ? 42 : 'not-the-right-type';
}

/**
 * An input that breaks the capability's own schema (not kn_id or response_format): a wrong type for its
 * first declared argument, or, for a capability without arguments, an invalid response_format.
 */
export function invalidInput(definition: CapabilityDefinition): Record<string, unknown> | undefined {
  const schema = advertisedInput(definition) as { properties?: Record<string, Record<string, unknown>> };
  const own = Object.entries(schema.properties ?? {}).filter(([name]) => !['kn_id', 'response_format'].includes(name));
  if (own.length > 0) return { [own[0][0]]: wrongType(own[0][1]) };
  if (definition.text === 'toon') return { response_format: 'xml' };
  return undefined;
}

/** A minimal valid-looking input from the schema alone: each required argument with a placeholder. */
export function generatedInput(definition: CapabilityDefinition): Record<string, unknown> {
  const schema = advertisedInput(definition) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const input: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const property = schema.properties?.[name] ?? {};
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    input[name] =
      type === 'array'
        ? [{}]
        : type === 'object'
          ? {}
          : type === 'number' || type === 'integer'
            ? 1
            : type === 'boolean'
              ? false
              : 'x';
  }
  return input;
}
