import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CkbConfig } from '../../config';
import { projectRoot } from '../../project-root';
import { CkbCallError } from '../ckb.port';
import { McpCkbClient } from './mcp-ckb-client';

const STANDIN = path.join(projectRoot(), 'test', 'fixtures', 'ckb-standin.js');

function standinConfig(dir: string, overrides: Partial<CkbConfig> = {}): CkbConfig {
  return {
    enabled: true,
    server: { kind: 'stdio', command: process.execPath, args: [STANDIN, '--dir', dir] },
    timeoutMs: 4000,
    cooldownSeconds: 60,
    probeIntervalSeconds: 0,
    simulateUnavailable: false,
    mockDelayMs: 0,
    codeRoot: undefined,
    dataDir: dir,
    redisUrl: undefined,
    ...overrides,
  };
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
  const dir = mkdtempSync(path.join(tmpdir(), 'ckb-client-'));
  const control = (knobs: object): void => writeFileSync(path.join(dir, 'control.json'), JSON.stringify(knobs));
  let client: McpCkbClient;

  beforeEach(() => {
    control({});
    client = new McpCkbClient(standinConfig(dir));
  });

  afterEach(async () => {
    await client.close();
  });

  it('lists the tools and parses a tool result', async () => {
    await expect(client.listTools()).resolves.toEqual(['searchSymbols', 'getCallGraph', 'findReferences', 'getStatus']);
    const result = (await client.callTool('searchSymbols', { query: 'calculateTotal' })) as { symbols: { name: string }[] };
    expect(result.symbols.map((symbol) => symbol.name)).toEqual(['calculateTotal']);
  });

  it('classifies a tool error result and a JSON-RPC error as mcp_error', async () => {
    control({ failWith: 'tool_error' });
    const toolError = await failureOf(client.callTool('searchSymbols', { query: 'x' }));
    expect(toolError).toMatchObject({ reason: 'mcp_error', message: 'CKB tool searchSymbols failed: SCIP index is stale' });
    control({ failWith: 'mcp_error' });
    expect(await failureOf(client.callTool('searchSymbols', { query: 'x' }))).toMatchObject({ reason: 'mcp_error' });
  });

  it('classifies a failing tools/list as health_check_failed', async () => {
    control({ failListTools: true });
    expect(await failureOf(client.listTools())).toMatchObject({ reason: 'health_check_failed' });
  });

  it('gives up at the deadline with connection_timeout, then reconnects', async () => {
    await client.close();
    client = new McpCkbClient(standinConfig(dir, { timeoutMs: 1500 }));
    control({ delayMs: 5000 });
    expect(await failureOf(client.listTools())).toMatchObject({ reason: 'connection_timeout', message: 'Connection timeout after 1500ms' });
    control({});
    await expect(client.listTools()).resolves.toHaveLength(4);
  });

  it('applies CKB_MOCK_DELAY_MS before every call, under the same deadline', async () => {
    await client.close();
    client = new McpCkbClient(standinConfig(dir, { timeoutMs: 300, mockDelayMs: 1000 }));
    expect(await failureOf(client.listTools())).toMatchObject({ reason: 'connection_timeout' });
  });

  it('fails the health check without contacting CKB when CKB_UNAVAILABLE=1', async () => {
    await client.close();
    client = new McpCkbClient(standinConfig(dir, { simulateUnavailable: true }));
    expect(await failureOf(client.callTool('getStatus', {}))).toMatchObject({ reason: 'health_check_failed' });
  });

  it('reports a server that cannot start as health_check_failed', async () => {
    await client.close();
    client = new McpCkbClient(standinConfig(dir, { server: { kind: 'stdio', command: path.join(dir, 'no-such-ckb'), args: [] } }));
    expect(await failureOf(client.listTools())).toMatchObject({ reason: 'health_check_failed' });
  });
});
