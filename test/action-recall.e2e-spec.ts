import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as path from 'node:path';
import request from 'supertest';
import { ActionRecallService } from '../src/actionrecall/actionrecall.service';
import { DynamicTool } from '../src/actionrecall/actionrecall.types';
import { configToken, OperatorsConfig } from '../src/config';
import { KnowledgeNetworkPort } from '../src/knowledge-network/knowledge-network.port';
import { ActionQueryResult } from '../src/knowledge-network/knowledge-network.types';
import { InputLimits } from '../src/common/limits/input-limits';
import { MetricsService } from '../src/metrics/metrics.service';
import { OperatorPort } from '../src/operators/operator.port';
import { prepareActionNetworks } from './support/action-fixture';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { freePort } from './support/free-port';
import { HttpPeer, sendJson, untilCallerHangsUp } from './support/http-peer';
import { EVERYTHING_SERVER, ScratchDir, scratchDir, testMcpServers } from './support/mcp-fixtures';
import { mockPort } from './support/unit/mocks';

/** What the embedded KN adapter returns for the fixture network's actions (bound parameters only). */
const ACTIONS: Record<string, ActionQueryResult> = {
  echo_status: {
    action_source: { type: 'mcp', mcp_id: 'everything', tool_name: 'echo' },
    actions: [{ parameters: { message: 'payment-api' } }],
  },
  prescribe: {
    action_source: { type: 'mcp', mcp_id: 'clinic_tools', tool_name: 'create_prescription' },
    actions: [{ parameters: { patient_id: 'P0001', clinic_code: 'HZ-CLINIC-001' } }],
  },
  open_ticket: {
    action_source: { type: 'tool', box_id: 'ticket_toolbox', tool_id: 'openTicket' },
    actions: [
      { parameters: { team: 'payments', service_name: 'payment-api', priority: 'P2', 'X-Ticket-Source': 'agent' } },
    ],
  },
};

const fakeKn = mockPort(KnowledgeNetworkPort, { queryActions: async (_kn: string, atId: string) => ACTIONS[atId] });

describe('action recall (e2e: real operators and proxy routes, KN played by a fake port)', () => {
  let app: TestApp;
  let scratch: ScratchDir;
  let peer: HttpPeer;
  let recall: (atId: string) => Promise<DynamicTool>;

  beforeAll(async () => {
    scratch = scratchDir('action-recall');
    peer = new HttpPeer((_request, response) => sendJson(response, 201, { ticket_id: 'T-1' }));
    await peer.start();
    const port = await freePort();
    app = await startTestApp({
      PORT: String(port),
      KN_DIR: prepareActionNetworks(scratch, peer.url),
      MCP_SERVERS_FILE: scratch.file('mcp.json', testMcpServers(path.join(scratch.dir, 'pid'))),
      ACTION_PROXY_BASE_URL: `http://127.0.0.1:${port}`,
      TOOLBOX_TIMEOUT_MS: '1000',
    });
    const service = new ActionRecallService(
      fakeKn,
      app.app.get(OperatorPort),
      app.app.get<OperatorsConfig>(configToken('operators')),
      app.app.get(MetricsService),
      app.app.get(InputLimits),
    );
    recall = async (atId) => {
      const account = { id: 'u-7', type: 'user' };
      const response = await service.getActionInfo(
        { kn_id: 'ops_actions', at_id: atId, _instance_identity: { service_id: 'svc-1' } },
        account,
      );
      expect(response.headers).toEqual({ 'x-account-id': 'u-7', 'x-account-type': 'user' });
      return response._dynamic_tools[0];
    };
  });

  afterAll(async () => {
    await app.close();
    await peer.stop();
    scratch.remove();
  });

  it('recalls a server-everything tool whose parameters are its inputSchema, then runs it through api_url', async () => {
    const client = new Client({ name: 'e2e', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], stderr: 'ignore' }),
    );
    const { tools } = await client.listTools();
    await client.close();
    const echo = tools.find((tool) => tool.name === 'echo')!;
    const { $schema: _dialect, ...expected } = echo.inputSchema as Record<string, unknown>;

    const tool = await recall('echo_status');
    expect(tool).toMatchObject({ name: 'echo', description: echo.description, api_call_strategy: 'kn_action_recall' });
    expect(tool.parameters).toEqual(expected);
    expect(tool.original_schema).toEqual(echo.inputSchema);
    expect(tool.fixed_params).toEqual({ message: 'payment-api' });
    expect(tool.api_url).toBe(`${app.url}/api/agent-retrieval/in/v1/mcp/proxy/everything/tools/echo/call`);

    const result = await request(tool.api_url).post('').set(INTERNAL_CALLER).send(tool.fixed_params).expect(200);
    expect(result.body).toEqual({ content: [{ type: 'text', text: 'Echo: payment-api' }] });
  });

  it('inlines $defs of the clinic create_prescription tool and prunes its self-reference', async () => {
    const tool = await recall('prescribe');
    const properties = tool.parameters.properties as Record<string, Record<string, unknown>>;
    expect(JSON.stringify(tool.parameters)).not.toContain('$ref');
    expect(properties.prescriber).toEqual({
      type: 'object',
      description: '开方医生（可带上级医生，用于审核链）',
      properties: {
        doctor_id: { type: 'string', description: '医生编号' },
        name: { type: 'string', description: '医生姓名' },
        supervisor: { type: 'object', description: '审核处方的上级医生' },
      },
      required: ['doctor_id'],
    });
    expect((properties.additional_items.items as Record<string, unknown>).required).toEqual([
      'drug_id',
      'dosage_instruction',
    ]);
    const args = {
      ...tool.fixed_params,
      drug_id: 'DR01',
      dosage_instruction: '口服',
      prescriber: { doctor_id: 'DOC1' },
    };
    const result = await request(tool.api_url).post('').set(INTERNAL_CALLER).send(args).expect(200);
    expect(result.body.structuredContent).toMatchObject({
      patient_id: 'P0001',
      clinic_code: 'HZ-CLINIC-001',
      prescriber: { doctor_id: 'DOC1' },
    });
  });

  it('recalls a toolbox action as layered parameters and runs the OpenAPI operation through api_url', async () => {
    const tool = await recall('open_ticket');
    expect(tool.api_url).toBe(`${app.url}/api/agent-retrieval/in/v1/tool-box/ticket_toolbox/proxy/openTicket`);
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: {
        header: {
          type: 'object',
          description: 'HTTP Header 参数',
          properties: { 'X-Ticket-Source': { type: 'string', description: 'Source system' } },
        },
        path: {
          type: 'object',
          description: 'URL Path 参数',
          properties: { team: { type: 'string', description: 'Owning team' } },
          required: ['team'],
        },
        query: {
          type: 'object',
          description: 'URL Query 参数',
          properties: { priority: { type: 'string', enum: ['P1', 'P2', 'P3'] } },
        },
        body: {
          type: 'object',
          description: 'Request Body 参数',
          properties: {
            title: { type: 'string', description: 'Ticket title' },
            service_name: { type: 'string' },
            related: { type: 'array', items: { type: 'object' } },
          },
          required: ['title'],
        },
      },
    });
    expect(tool.fixed_params).toEqual({
      header: { 'X-Ticket-Source': 'agent' },
      path: { team: 'payments' },
      query: { priority: 'P2' },
      body: { service_name: 'payment-api' },
    });
    expect(tool.original_schema).toMatchObject({ method: 'POST', path: '/teams/{team}/tickets' });

    const fixed = tool.fixed_params as Record<string, Record<string, unknown>>;
    const args = { ...fixed, path: { team: 'pay#ments' }, body: { ...fixed.body, title: '延迟升高 & 5xx' } };
    const result = await request(tool.api_url).post('').set(INTERNAL_CALLER).send(args).expect(200);
    expect(result.body).toMatchObject({ status_code: 201, body: { ticket_id: 'T-1' } });
    const received = peer.requests.at(-1)!;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/ticket-api/teams/pay%23ments/tickets?priority=P2');
    expect(received.headers['x-ticket-source']).toBe('agent');
    expect(received.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received.body)).toEqual({ service_name: 'payment-api', title: '延迟升高 & 5xx' });
  });

  it('refuses toolbox calls that are malformed or leave the allow-listed hosts', async () => {
    const proxy = `${app.url}/api/agent-retrieval/in/v1/tool-box`;
    const missingPath = await request(proxy)
      .post('/ticket_toolbox/proxy/openTicket')
      .set(INTERNAL_CALLER)
      .send({ body: {} })
      .expect(400);
    expect(missingPath.body).toMatchObject({
      code: 'agentRetrieval.BadRequest.InvalidToolArguments',
      details: 'path parameter "team" is required',
    });
    const flat = await request(proxy)
      .post('/ticket_toolbox/proxy/openTicket')
      .set(INTERNAL_CALLER)
      .send({ title: 'x' })
      .expect(400);
    expect(flat.body.code).toBe('agentRetrieval.BadRequest.InvalidToolArguments');
    const injected = await request(proxy)
      .post('/ticket_toolbox/proxy/openTicket')
      .set(INTERNAL_CALLER)
      .send({ path: { team: 'a' }, header: { 'X-Ticket-Source': 'a\r\nX-Evil: 1' } })
      .expect(400);
    expect(injected.body.details).toBe('header "X-Ticket-Source" must be a single-line value');
    const outside = await request(proxy)
      .post('/outside_toolbox/proxy/callOutside')
      .set(INTERNAL_CALLER)
      .send({})
      .expect(403);
    expect(outside.body.code).toBe('agentRetrieval.Forbidden.ToolHostNotAllowed');
    const unknown = await request(proxy).post('/ticket_toolbox/proxy/nope').set(INTERNAL_CALLER).send({}).expect(404);
    expect(unknown.body.code).toBe('agentRetrieval.NotFound.ToolboxToolNotFound');
  });

  it('answers 504 when the toolbox endpoint does not answer within TOOLBOX_TIMEOUT_MS', async () => {
    peer.setHandler((_request, response) => untilCallerHangsUp(response));
    const response = await request(app.url)
      .post('/api/agent-retrieval/in/v1/tool-box/ticket_toolbox/proxy/openTicket')
      .set(INTERNAL_CALLER)
      .send({ path: { team: 'payments' }, body: { title: 't' } })
      .expect(504);
    expect(response.body.code).toBe('agentRetrieval.GatewayTimeout.UpstreamTimeout');
  });

  it('answers 502 when the toolbox endpoint is unreachable', async () => {
    await peer.stop();
    const response = await request(app.url)
      .post('/api/agent-retrieval/in/v1/tool-box/ticket_toolbox/proxy/openTicket')
      .set(INTERNAL_CALLER)
      .send({ path: { team: 'payments' }, body: { title: 't' } })
      .expect(502);
    expect(response.body.code).toBe('agentRetrieval.BadGateway.UpstreamUnreachable');
  });

  describe('POST /kn/get_action_info validation', () => {
    const route = '/api/agent-retrieval/in/v1/kn/get_action_info';

    it('requires kn_id from the body, the query or X-Kn-ID', async () => {
      const response = await request(app.url)
        .post(route)
        .set(INTERNAL_CALLER)
        .send({ at_id: 'echo_status' })
        .expect(400);
      expect(response.body).toMatchObject({
        code: 'agentRetrieval.BadRequest.ValidationRequired',
        details: 'kn_id is required (configure X-Kn-ID header or pass kn_id in arguments)',
      });
    });

    it('is served under the public prefix too', async () => {
      const response = await request(app.url)
        .post('/api/agent-retrieval/v1/kn/get_action_info')
        .send({ at_id: 'x' })
        .expect(400);
      expect(response.body.details).toBe('kn_id is required (configure X-Kn-ID header or pass kn_id in arguments)');
    });

    it('requires at_id and names the JSON field', async () => {
      const response = await request(app.url)
        .post(route)
        .set(INTERNAL_CALLER)
        .set('x-language', 'en-US')
        .send({ kn_id: 'k' })
        .expect(400);
      expect(response.body.code).toBe('agentRetrieval.BadRequest.ValidationRequired');
      expect(response.body.details).toContain('at_id');
    });

    it('rejects identities that are not objects', async () => {
      const response = await request(app.url)
        .post(route)
        .set(INTERNAL_CALLER)
        .send({ kn_id: 'k', at_id: 'a', _instance_identities: ['x'] })
        .expect(400);
      expect(response.body.details).toContain('_instance_identities');
    });
  });
});
