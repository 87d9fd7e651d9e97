/**
 * One access policy for every door (issue 29, acceptance 3): with the issue's own ACCESS_POLICY for the
 * `agent` account type, an agent sees only the clinic network and read-only capabilities — in the REST
 * network list, MCP tools/list, resources/list and prompts, the tool API and the chat's tool set — while a
 * `user` keeps the default. A change to the policy file is in force within seconds, without a restart; a
 * bad change keeps the policy in force.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { CapabilityCatalog } from '../src/capabilities/capability-catalog';
import { AccessPolicyService } from '../src/governance/access-policy.service';
import { startTestApp, TestApp } from './support/app';
import { LlmStandin } from './support/llm-standin';
import { connectV1 } from './support/mcp-clients';
import { startServiceProcess } from './support/service-process';
import { until } from './support/until';

const AGENT_POLICY = { agent: { networks: ['clinic'], allow: ['@read_only'], deny: [], auto: ['@read_only'] } };
const KN = '/api/agent-retrieval/v1/kn';

describe('one access policy at every door (e2e)', () => {
  const model = new LlmStandin();
  const policyFile = path.join(mkdtempSync(path.join(tmpdir(), 'policy-')), 'access-policy.json');
  let app: TestApp;
  let agentMcp: Client;
  let readOnly: Set<string>;

  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const knSearch = (token: string, knId: string) =>
    request(app.url).post(`${KN}/kn_search`).set(as(token)).send({ kn_id: knId, query: '部署' });

  beforeAll(async () => {
    writeFileSync(policyFile, JSON.stringify(AGENT_POLICY));
    const llmUrl = await model.start();
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'tok-agent=agent-1:agent,tok-user=user-1:user',
      ACCESS_POLICY: policyFile,
      LLM_BASE_URL: llmUrl,
      WORKSPACE_ROOT: mkdtempSync(path.join(tmpdir(), 'policy-ws-')),
    });
    readOnly = new Set(
      app.app
        .get(CapabilityCatalog)
        .list()
        .filter((capability) => capability.definition.annotations.readOnly)
        .map((capability) => capability.name),
    );
    agentMcp = await connectV1(app.url, as('tok-agent'));
  });

  afterAll(async () => {
    await agentMcp.close();
    await app.close();
    await model.stop();
  });

  it('the agent lists only the clinic network; the user lists both', async () => {
    const agent = await request(app.url).get(`${KN}/networks`).set(as('tok-agent')).expect(200);
    expect((agent.body.networks as { id: string }[]).map((network) => network.id)).toEqual(['clinic']);
    const user = await request(app.url).get(`${KN}/networks`).set(as('tok-user')).expect(200);
    expect((user.body.networks as { id: string }[]).map((network) => network.id).sort()).toEqual(['clinic', 'k8s_ops']);
  });

  it('kn_search on k8s_ops is 404 for the agent (as if it did not exist) and 200 for the user', async () => {
    const agent = await knSearch('tok-agent', 'k8s_ops').expect(404);
    const missing = await knSearch('tok-user', 'no_such_network').expect(404);
    expect(agent.body).toEqual(
      expect.objectContaining({ code: missing.body.code, description: missing.body.description }),
    );
    expect(agent.body.details).toBe(String(missing.body.details).replace('no_such_network', 'k8s_ops'));
    await knSearch('tok-user', 'k8s_ops').expect(200);
    await knSearch('tok-agent', 'clinic').expect(200);
  });

  it('MCP tools/list, resources/list and prompts show the agent only what it may use', async () => {
    // A connection without X-Kn-ID: the discovery and document tools the agent may use.
    const tools = (await agentMcp.listTools()).tools;
    expect(tools.length).toBeGreaterThan(2);
    for (const tool of tools)
      expect({ tool: tool.name, readOnly: readOnly.has(tool.name) }).toEqual({ tool: tool.name, readOnly: true });
    expect(tools.map((tool) => tool.name)).not.toContain('execute_action');
    const resources = (await agentMcp.listResources()).resources.map((resource) => resource.uri);
    expect(resources).toEqual(['kn://clinic']);
    await expect(agentMcp.readResource({ uri: 'kn://k8s_ops' })).rejects.toThrow(/no knowledge network/);
    const prompts = (await agentMcp.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(prompts).toContain('explore_network');
    expect(prompts).not.toContain('act_on_instance');
    const completion = await agentMcp.complete({
      ref: { type: 'ref/prompt', name: 'explore_network' },
      argument: { name: 'kn_id', value: '' },
    });
    expect(completion.completion.values).toEqual(['clinic']);
  });

  it('the tool API lists the agent the read-only set, and the chat offers only from it', async () => {
    const listed = await request(app.url).get('/v1/tools').set(as('tok-agent')).expect(200);
    const apiTools = (listed.body.data as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(apiTools.length).toBeGreaterThan(5);
    for (const name of apiTools) expect({ name, readOnly: readOnly.has(name) }).toEqual({ name, readOnly: true });
    expect(apiTools).not.toContain('write_file');
    model.use(() => ({ content: 'ok' }));
    await request(app.url)
      .post('/v1/chat/completions')
      .set(as('tok-agent'))
      .send({ messages: [{ role: 'user', content: 'hi' }] })
      .expect(200);
    // The chat offers find_tools and, within the definitions budget, a part of that same set, never more.
    const chatTools = (model.bodies[0].tools ?? []).map((tool) => tool.function.name);
    expect(chatTools[0]).toBe('find_tools');
    expect(chatTools).toContain('kn_search');
    expect(apiTools).toEqual(expect.arrayContaining(chatTools.slice(1)));
    const denied = await request(app.url)
      .post('/v1/tools/execute_action/call')
      .set(as('tok-agent'))
      .send({ arguments: { kn_id: 'clinic', at_id: 'book_appointment', _instance_identity: { patient_id: 'P00276' } } })
      .expect(403);
    expect(denied.body.error).toMatchObject({ code: 'agentRetrieval.Forbidden.ToolDenied' });
    expect(denied.body.error.message).toMatch(/agent\.allow/);
  });

  it('a policy file change is in force within 5 s without a restart; a broken one keeps the last good one', async () => {
    writeFileSync(policyFile, JSON.stringify({ agent: { ...AGENT_POLICY.agent, networks: ['clinic', 'k8s_ops'] } }));
    // Waits for the effect, not for a time: the service's file watcher picks the change up on its next
    // look (every second), and the 5 s deadline is the promise under test — past it, `until` fails.
    await until('the agent sees k8s_ops', async () => (await knSearch('tok-agent', 'k8s_ops')).status === 200, 5000);
    const reload = jest.spyOn(app.app.get(AccessPolicyService), 'reload');
    writeFileSync(policyFile, '{ "agent": { "networks": [ ');
    // The watcher reads the broken file and refuses it; the previous policy stays.
    await until('the broken file is refused', () => reload.mock.results.some((result) => result.value === false), 5000);
    reload.mockRestore();
    await knSearch('tok-agent', 'k8s_ops').expect(200);
    writeFileSync(policyFile, JSON.stringify(AGENT_POLICY));
    await until('k8s_ops is hidden again', async () => (await knSearch('tok-agent', 'k8s_ops')).status === 404, 5000);
  });
});

describe('the access policy in its own process (e2e)', () => {
  it('SIGHUP re-reads the policy file; a broken file keeps the policy in force and says why', async () => {
    const policyFile = path.join(mkdtempSync(path.join(tmpdir(), 'policy-hup-')), 'access-policy.json');
    writeFileSync(policyFile, JSON.stringify(AGENT_POLICY));
    const service = await startServiceProcess({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'tok-agent=agent-1:agent',
      ACCESS_POLICY: policyFile,
      LOG_LEVEL: 'info',
    });
    const knSearch = () =>
      request(service.url)
        .post(`${KN}/kn_search`)
        .set('authorization', 'Bearer tok-agent')
        .send({ kn_id: 'clinic', query: '糖尿病' });
    try {
      await knSearch().expect(200);
      writeFileSync(policyFile, JSON.stringify({ agent: { ...AGENT_POLICY.agent, deny: ['kn_search'] } }));
      service.signal('SIGHUP');
      await until('kn_search is denied', async () => (await knSearch()).status === 403, 5000);
      writeFileSync(policyFile, '[1, 2');
      service.signal('SIGHUP');
      await until('the refusal is logged', () => /access policy not reloaded/.test(service.output()), 5000);
      await knSearch().expect(403);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});
