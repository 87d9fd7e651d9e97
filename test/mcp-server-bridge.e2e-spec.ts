import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, TestApp } from './support/app';
import { answeringKnId, errorBodyOf, MCP_PATH, ToolCallResult } from './support/mcp-clients';

const ROOT = path.join(__dirname, '..');
const MCP_REMOTE = path.join(ROOT, 'node_modules/mcp-remote/dist/proxy.js');

describe('MCP server through stdio bridges (e2e)', () => {
  let app: TestApp;
  let configDir: string;

  beforeAll(async () => {
    app = await startTestApp({ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 'bridge-token=user-9:user' });
    configDir = mkdtempSync(path.join(tmpdir(), 'mcp-remote-'));
  });

  afterAll(async () => {
    await app.close();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('mcp-remote with --header lines: an SDK stdio client lists and calls tools through it', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        MCP_REMOTE,
        `${app.url}${MCP_PATH}`,
        '--header',
        'Authorization: Bearer bridge-token',
        '--header',
        'X-Kn-ID: clinic',
        '--transport',
        'http-only',
        '--allow-http',
      ],
      // Keeps mcp-remote's token/lock files out of the developer's home directory.
      env: { ...getDefaultEnvironment(), MCP_REMOTE_CONFIG_DIR: configDir },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'e2e-stdio', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('agent-retrieval');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['kn_schema_search', 'kn_search', 'query_object_instance', 'get_action_info']),
      );
      const result = (await client.callTool({ name: 'kn_search', arguments: { query: '糖尿病' } })) as ToolCallResult;
      expect(answeringKnId(result)).toBe('clinic');
      expect(result.isError).toBeUndefined();
      const nodes = (result.structuredContent as { nodes: { object_type_id: string; unique_identities: object }[] })
        .nodes;
      expect(nodes[0]).toMatchObject({ object_type_id: 'diagnosis', instance_name: expect.stringContaining('糖尿病') });
      const unknown = (await client.callTool({
        name: 'query_object_instance',
        arguments: { ot_id: 'no_such_type' },
      })) as ToolCallResult;
      expect(errorBodyOf(unknown).code).toBe('agentRetrieval.NotFound.ObjectTypeNotFound');
    } finally {
      await client.close();
    }
  });

  it('MCP Inspector CLI (devDependency) scripted check: counts every listed tool, kn_search answers on clinic', async () => {
    const { stdout } = await promisify(execFile)(
      'bash',
      [path.join(ROOT, 'scripts/inspector-check.sh'), `${app.url}${MCP_PATH}`],
      {
        env: { ...process.env, MCP_TOKEN: 'bridge-token', MCP_KN_ID: 'clinic' },
      },
    );
    const listed = await fetch(`${app.url}${MCP_PATH}`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer bridge-token',
        'x-kn-id': 'clinic',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    const { result } = (await listed.json()) as { result: { tools: unknown[] } };
    expect(result.tools.length).toBeGreaterThan(6);
    expect(stdout).toContain(
      `OK inspector-check: ${result.tools.length} tools listed, the 6 knowledge-network tools among them; kn_search answered (kn_id clinic)`,
    );
  });

  it('the inspector check fails (exit 1) when the server refuses the token', async () => {
    const run = promisify(execFile)('bash', [path.join(ROOT, 'scripts/inspector-check.sh'), `${app.url}${MCP_PATH}`], {
      env: { ...process.env, MCP_TOKEN: 'wrong-token', MCP_KN_ID: 'clinic' },
    });
    await expect(run).rejects.toMatchObject({ code: expect.any(Number) });
    await expect(run).rejects.not.toMatchObject({ code: 0 });
  });
});
