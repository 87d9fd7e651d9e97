import * as path from 'node:path';
import { CkbCallError } from '../ckb.port';
import { McpCkbClient } from './mcp-ckb-client';
import { CkbStandin } from '../../../test/support/ckb-standin';
import { testConfig } from '../../../test/support/unit/config';
import { waitFor } from '../../../test/support/until';

/** A client for the stand-in over stdio, with a 4 s deadline unless `env` says otherwise. */
function standinConfig(standin: CkbStandin, env: Record<string, string> = {}) {
  return testConfig({
    CKB_COMMAND: standin.command,
    CKB_TIMEOUT_MS: '4000',
    CKB_PROBE_INTERVAL_S: '0',
    DATA_DIR: standin.dir,
    ...env,
  }).ckb;
}

async function failureOf(promise: Promise<unknown>): Promise<CkbCallError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CkbCallError);
  return error as CkbCallError;
}

describe('McpCkbClient against the CKB stand-in (stdio)', () => {
  const standin = new CkbStandin();
  let client: McpCkbClient;

  beforeEach(() => {
    standin.control({});
    client = new McpCkbClient(standinConfig(standin));
  });

  afterEach(async () => {
    await client.close();
  });

  it('lists the tools and parses a tool result', async () => {
    await expect(client.listTools()).resolves.toEqual(['searchSymbols', 'getCallGraph', 'findReferences', 'getStatus']);
    const result = (await client.callTool('searchSymbols', { query: 'calculateTotal' })) as {
      symbols: { name: string }[];
    };
    expect(result.symbols.map((symbol) => symbol.name)).toEqual(['calculateTotal']);
  });

  it('classifies a tool error result and a JSON-RPC error as mcp_error', async () => {
    standin.control({ failWith: 'tool_error' });
    const toolError = await failureOf(client.callTool('searchSymbols', { query: 'x' }));
    expect(toolError).toMatchObject({
      reason: 'mcp_error',
      message: 'CKB tool searchSymbols failed: SCIP index is stale',
    });
    standin.control({ failWith: 'mcp_error' });
    expect(await failureOf(client.callTool('searchSymbols', { query: 'x' }))).toMatchObject({
      reason: 'mcp_error',
      message: 'MCP error -32603: backend crashed',
    });
  });

  it('classifies a failing tools/list as health_check_failed', async () => {
    standin.control({ failListTools: true });
    expect(await failureOf(client.listTools())).toMatchObject({
      reason: 'health_check_failed',
      message: 'MCP error -32603: index not ready',
    });
  });

  it('gives up at the deadline with connection_timeout, then reconnects', async () => {
    await client.close();
    client = new McpCkbClient(standinConfig(standin, { CKB_TIMEOUT_MS: '1500' }));
    standin.control({ delayMs: 5000 });
    expect(await failureOf(client.listTools())).toMatchObject({
      reason: 'connection_timeout',
      message: 'Connection timeout after 1500ms',
    });
    standin.control({});
    // The reconnect starts a new stand-in process, racing the same deadline: on a busy machine one try
    // may lose that race, so the client is given a few, and must get through.
    const tools = await waitFor('the client reconnects', () => client.listTools().catch(() => undefined), 20_000);
    expect(tools).toHaveLength(4);
  }, 30_000);

  it('reports a server that cannot start as health_check_failed', async () => {
    await client.close();
    client = new McpCkbClient(standinConfig(standin, { CKB_COMMAND: `"${path.join(standin.dir, 'no-such-ckb')}"` }));
    expect(await failureOf(client.listTools())).toMatchObject({ reason: 'health_check_failed' });
  });
});
