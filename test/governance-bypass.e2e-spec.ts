/**
 * The action rules cannot be walked around (issue 29, acceptance 2): on the demo k8s_ops network, the
 * operator tool bound to `restart_deployment` (k8s_tools' restart_deployment) runs only through
 * execute_action — never raw from the chat, the tool API or MCP. The k8s_tools server is the demo's real
 * stdio MCP server; its own call log (MCP_CALL_LOG) is the witness of what ran.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { projectRoot } from '../src/project-root';
import { startTestApp, TestApp } from './support/app';
import { LlmStandin } from './support/llm-standin';
import { connectV1 } from './support/mcp-clients';

const TOKEN = 'tok-ops';
const KN = '/api/agent-retrieval/v1/kn';
const HEALTHY = { deployment_id: 'payments/payment-api' };
const DEGRADED = { deployment_id: 'identity/auth-server' };

/** A copy of k8s_ops whose k8s_tools server writes every call it receives to `log`. */
function networkWithCallLog(log: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'bypass-kn-'));
  const examples = path.join(projectRoot(), 'examples');
  cpSync(path.join(examples, 'networks', 'k8s_ops'), path.join(root, 'k8s_ops'), { recursive: true });
  const server = path.join(examples, 'mcp-servers', 'clinic-tools', 'server.js');
  const mcp = {
    mcpServers: { k8s_tools: { command: 'node', args: [server, '--profile', 'k8s'], env: { MCP_CALL_LOG: log } } },
  };
  writeFileSync(path.join(root, 'k8s_ops', 'mcp.json'), JSON.stringify(mcp));
  return root;
}

describe('no door runs an action-bound operator tool raw (e2e)', () => {
  const model = new LlmStandin();
  const log = path.join(mkdtempSync(path.join(tmpdir(), 'bypass-log-')), 'k8s-tools.log');
  let app: TestApp;
  let mcp: Client;

  const calls = (): { tool: string; arguments: Record<string, unknown> }[] =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { tool: string; arguments: Record<string, unknown> })
      : [];
  const restarts = () => calls().filter((call) => call.tool === 'restart_deployment');

  const execute = (identity: Record<string, string>, extra: Record<string, unknown> = {}) =>
    request(app.url)
      .post(`${KN}/execute_action`)
      .set('authorization', `Bearer ${TOKEN}`)
      .send({ kn_id: 'k8s_ops', at_id: 'restart_deployment', _instance_identity: identity, ...extra });

  beforeAll(async () => {
    const llmUrl = await model.start();
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: `${TOKEN}=ops-1:user`,
      KN_DIR: networkWithCallLog(log),
      LLM_BASE_URL: llmUrl,
      WORKSPACE_ROOT: mkdtempSync(path.join(tmpdir(), 'bypass-ws-')),
    });
    mcp = await connectV1(app.url, { Authorization: `Bearer ${TOKEN}`, 'X-Kn-ID': 'k8s_ops' });
  });

  afterAll(async () => {
    await mcp.close();
    await app.close();
    await model.stop();
  });

  it.each(['restart_deployment', 'k8s_tools__restart_deployment'])(
    'chat: the model calling %s directly runs nothing',
    async (name) => {
      model.use((body) =>
        body.messages.some((message) => message.role === 'tool')
          ? { content: 'done' }
          : { tool_calls: [{ name, arguments: { namespace: 'payments', deployment_name: 'payment-api' } }] },
      );
      const response = await request(app.url)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${TOKEN}`)
        .send({ messages: [{ role: 'user', content: 'restart payment-api' }], kn_id: 'k8s_ops' })
        .expect(200);
      const offered = (model.bodies[0].tools ?? []).map((tool) => tool.function.name);
      expect(offered).not.toContain('restart_deployment');
      expect(offered).not.toContain('k8s_tools__restart_deployment');
      // The unbound tool of the same server is still offered (the default policy names `*__*`).
      expect(offered).toContain('k8s_tools__echo');
      expect(response.body.tool_execution).toMatchObject({ executed: false });
      expect(restarts()).toEqual([]);
    },
  );

  it('chat: execute_action is a confirm tool by default, handed to the client and not run', async () => {
    model.use(() => ({
      tool_calls: [
        {
          name: 'execute_action',
          arguments: { kn_id: 'k8s_ops', at_id: 'restart_deployment', _instance_identity: DEGRADED, confirm: true },
        },
      ],
    }));
    const response = await request(app.url)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${TOKEN}`)
      .send({ messages: [{ role: 'user', content: 'restart auth-server' }], kn_id: 'k8s_ops' })
      .expect(200);
    expect(response.body.choices[0].finish_reason).toBe('tool_calls');
    expect(response.body.tool_execution).toMatchObject({ executed: false });
    expect(restarts()).toEqual([]);
  });

  it.each(['k8s_tools__restart_deployment', 'restart_deployment'])(
    'the tool API neither lists nor runs %s',
    async (name) => {
      const listed = await request(app.url).get('/v1/tools').set('authorization', `Bearer ${TOKEN}`).expect(200);
      const names = (listed.body.data as { function: { name: string } }[]).map((tool) => tool.function.name);
      expect(names).not.toContain(name);
      const response = await request(app.url)
        .post(`/v1/tools/${name}/call`)
        .set('authorization', `Bearer ${TOKEN}`)
        .send({ arguments: { namespace: 'payments', deployment_name: 'payment-api' } })
        .expect(404);
      expect(response.body.error.code).toBe('tool_not_found');
      expect(restarts()).toEqual([]);
    },
  );

  it('MCP neither lists nor runs the bound tool', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('k8s_tools__restart_deployment');
    const failure = await mcp
      .callTool({ name: 'k8s_tools__restart_deployment', arguments: { namespace: 'payments', deployment_name: 'x' } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(-32602);
    expect(restarts()).toEqual([]);
  });

  it('execute_action on the healthy payment-api is 409, even confirmed', async () => {
    const response = await execute(HEALTHY, { confirm: true, arguments: { reason: 'try' } }).expect(409);
    expect(response.body.code).toBe('agentRetrieval.Conflict.ActionTriggerConditionNotMet');
    expect(restarts()).toEqual([]);
  });

  it('on a Degraded deployment it runs only after approval, with the const 25% applied', async () => {
    const refused = await execute(DEGRADED, { arguments: { reason: 'pods crash-looping' } }).expect(403);
    expect(refused.body.code).toBe('agentRetrieval.Forbidden.ActionApprovalRequired');
    expect(restarts()).toEqual([]);
    const ran = await execute(DEGRADED, {
      confirm: true,
      arguments: { reason: 'pods crash-looping', max_unavailable: '100%' },
    }).expect(200);
    expect(ran.body).toMatchObject({ outcome: 'ok', arguments: { max_unavailable: '25%' } });
    expect(restarts()).toEqual([
      {
        tool: 'restart_deployment',
        arguments: expect.objectContaining({
          namespace: 'identity',
          deployment_name: 'auth-server',
          max_unavailable: '25%',
        }) as unknown,
      },
    ]);
  });
});
