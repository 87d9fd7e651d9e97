import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const MCP_PATH = '/api/agent-retrieval/v1/mcp';
export const KN_ID_REQUIRED = 'kn_id is required (configure X-Kn-ID header or pass kn_id in arguments)';

export interface ToolCallResult {
  content?: unknown;
  isError?: boolean;
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

/** An official SDK 1.x client over Streamable HTTP with fixed connection headers (as Cursor sends them). */
export async function connectV1(baseUrl: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'e2e-sdk-v1', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}${MCP_PATH}`), { requestInit: { headers } }),
  );
  return client;
}

/** An official SDK 2.x client; `modern` negotiates the 2026-07-28 stateless era via server/discover. */
export async function connectV2(
  baseUrl: string,
  headers: Record<string, string> = {},
  modern = false,
): Promise<ClientV2> {
  const client = new ClientV2(
    { name: 'e2e-sdk-v2', version: '2.0.0' },
    modern ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(new TransportV2(new URL(`${baseUrl}${MCP_PATH}`), { requestInit: { headers } }));
  return client;
}

/** The first text block of a tool result. */
export function textOf(result: ToolCallResult): string {
  const blocks = (result.content ?? []) as { type: string; text?: string }[];
  const block = blocks.find((item) => item.type === 'text');
  if (!block?.text) throw new Error(`no text block in ${JSON.stringify(result).slice(0, 300)}`);
  return block.text;
}

/** The error body carried by an isError result. */
export function errorBodyOf(result: ToolCallResult): { code: string; description: string; details?: unknown } {
  expect(result.isError).toBe(true);
  return JSON.parse(textOf(result)) as { code: string; description: string; details?: unknown };
}

/** The kn_id the server says answered the call. */
export function answeringKnId(result: ToolCallResult): unknown {
  return result._meta?.['agent-retrieval/kn_id'];
}
