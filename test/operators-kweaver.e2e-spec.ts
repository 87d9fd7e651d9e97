import { ServerResponse } from 'node:http';
import request from 'supertest';
import { ActionRecallService } from '../src/actionrecall/actionrecall.service';
import { runWithRequestContext } from '../src/common/context/request-context';
import { configToken, OperatorsConfig } from '../src/config';
import { KnowledgeNetworkPort } from '../src/knowledge-network/knowledge-network.port';
import { ActionQueryResult } from '../src/knowledge-network/knowledge-network.types';
import { InputLimits } from '../src/common/limits/input-limits';
import { MetricsService } from '../src/metrics/metrics.service';
import { OperatorPort } from '../src/operators/operator.port';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { HttpPeer, RecordedRequest, sendJson } from './support/http-peer';
import { mockPort } from './support/unit/mocks';

const AOI = '/api/agent-operator-integration/internal-v1';
const PROXY = '/api/agent-retrieval/in/v1';

const apiSpec = {
  parameters: [{ name: 'pod_name', in: 'query', required: true, schema: { type: 'string' } }],
  request_body: {
    content: { 'application/json': { schema: { type: 'object', properties: { namespace: { type: 'string' } } } } },
  },
};
const diseaseTool = {
  name: 'lookup_disease',
  description: 'Look a disease up',
  inputSchema: {
    type: 'object',
    $defs: { Code: { type: 'string', description: 'ICD-10 code' } },
    properties: { disease_id: { $ref: '#/$defs/Code' } },
    required: ['disease_id'],
  },
};

/** Plays agent-operator-integration (contracts §7.3). */
function aoi(request: RecordedRequest, response: ServerResponse): void | Promise<void> {
  const { method, url } = request;
  if (method === 'GET' && url === `${AOI}/tool-box/box-001/tool/tool-001`) {
    return sendJson(response, 200, {
      tool_id: 'tool-001',
      name: 'restart_pod',
      description: 'Restart a pod',
      metadata: { api_spec: apiSpec },
    });
  }
  if (method === 'GET' && url === `${AOI}/mcp/proxy/mcp-001/tools`)
    return sendJson(response, 200, { tools: [diseaseTool] });
  if (method === 'POST' && url === `${AOI}/mcp/proxy/mcp-001/tool/call`) {
    const { tool_name, parameters } = JSON.parse(request.body) as {
      tool_name: string;
      parameters: { disease_id?: string };
    };
    if (parameters.disease_id === 'slow') return new Promise((resolve) => setTimeout(resolve, 1500).unref());
    return sendJson(response, 200, {
      content: [{ type: 'text', text: `${tool_name}:${parameters.disease_id}` }],
      isError: false,
    });
  }
  if (method === 'POST' && url === `${AOI}/tool-box/box-001/proxy/tool-001`) {
    return sendJson(response, 200, {
      status_code: 202,
      headers: { 'x-run': '1' },
      body: { accepted: JSON.parse(request.body) },
    });
  }
  if (url.startsWith(`${AOI}/mcp/proxy/broken/`)) return sendJson(response, 500, { error: 'internal' });
  return sendJson(response, 404, { code: 'NotFound' });
}

describe('operators over KWeaver AOI (e2e against an HttpPeer playing AOI)', () => {
  let app: TestApp;
  let peer: HttpPeer;
  let service: ActionRecallService;

  beforeAll(async () => {
    peer = new HttpPeer(aoi);
    await peer.start();
    app = await startTestApp({
      OPERATOR_BACKEND: 'kweaver',
      OPERATOR_INTEGRATION_URL: peer.url,
      MCP_CALL_TIMEOUT_MS: '1000',
    });
    const actions: Record<string, ActionQueryResult> = {
      tool: {
        action_source: { type: 'tool', box_id: 'box-001', tool_id: 'tool-001' },
        actions: [{ parameters: { pod_name: 'p1', param1: 'v1' } }],
      },
      mcp: {
        action_source: { type: 'mcp', mcp_id: 'mcp-001', tool_name: 'lookup_disease' },
        actions: [{ parameters: { disease_id: 'E11' } }],
      },
      missing: { action_source: { type: 'mcp', mcp_id: 'mcp-001', tool_name: 'gone' }, actions: [{ parameters: {} }] },
    };
    const kn = mockPort(KnowledgeNetworkPort, { queryActions: async (_kn: string, at: string) => actions[at] });
    service = new ActionRecallService(
      kn,
      app.app.get(OperatorPort),
      app.app.get<OperatorsConfig>(configToken('operators')),
      app.app.get(MetricsService),
      app.app.get(InputLimits),
    );
  });

  afterAll(async () => {
    await app.close();
    await peer.stop();
  });

  const recall = (atId: string) =>
    runWithRequestContext({ requestId: 'r-k', language: 'en-US', account: { id: 'u1', type: 'user' } }, () =>
      service.getActionInfo({ kn_id: 'kn-001', at_id: atId }),
    );

  it('recalls a tool action from AOI tool detail with the AOI proxy api_url and account headers', async () => {
    const [tool] = (await recall('tool'))._dynamic_tools;
    expect(tool.api_url).toBe(`${peer.url}${AOI}/tool-box/box-001/proxy/tool-001`);
    expect(tool.original_schema).toEqual(apiSpec);
    expect(tool.fixed_params).toEqual({ header: {}, path: {}, query: { pod_name: 'p1' }, body: { param1: 'v1' } });
    const detailCall = peer.requests.find((entry) => entry.url.endsWith('/tool/tool-001'))!;
    expect(detailCall.headers['x-account-id']).toBe('u1');
    expect(detailCall.headers['x-account-type']).toBe('user');
  });

  it('recalls an MCP action from the AOI tool list with $defs inlined', async () => {
    const [tool] = (await recall('mcp'))._dynamic_tools;
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: { disease_id: { type: 'string', description: 'ICD-10 code' } },
      required: ['disease_id'],
    });
    expect(tool.api_url).toBe(
      'http://agent-retrieval:30779/api/agent-retrieval/in/v1/mcp/proxy/mcp-001/tools/lookup_disease/call',
    );
    await expect(recall('missing')).rejects.toMatchObject({
      status: 404,
      definition: { code: 'agentRetrieval.NotFound.MCPToolNotFound' },
    });
  });

  it('proxies an MCP call to AOI as {tool_name, parameters} and passes the result through', async () => {
    const response = await request(app.url)
      .post(`${PROXY}/mcp/proxy/mcp-001/tools/lookup_disease/call`)
      .set('x-account-id', 'u9')
      .set('x-account-type', 'app')
      .send({ disease_id: 'E11' })
      .expect(200);
    expect(response.body).toEqual({ content: [{ type: 'text', text: 'lookup_disease:E11' }], isError: false });
    const sent = peer.requests.at(-1)!;
    expect(JSON.parse(sent.body)).toEqual({ tool_name: 'lookup_disease', parameters: { disease_id: 'E11' } });
    expect(sent.headers).toMatchObject({ 'x-account-id': 'u9', 'x-account-type': 'app' });
  });

  it('proxies a toolbox call to AOI and unwraps its envelope', async () => {
    const args = { query: { pod_name: 'p1' }, body: { namespace: 'prod' } };
    const response = await request(app.url)
      .post(`${PROXY}/tool-box/box-001/proxy/tool-001`)
      .set(INTERNAL_CALLER)
      .send(args)
      .expect(200);
    expect(response.body).toEqual({ status_code: 202, headers: { 'x-run': '1' }, body: { accepted: args } });
  });

  it('maps AOI failures: 404 → 404, 5xx → 502, too slow → 504', async () => {
    const unknown = await request(app.url)
      .post(`${PROXY}/mcp/proxy/nope/tools/x/call`)
      .set(INTERNAL_CALLER)
      .send({})
      .expect(404);
    expect(unknown.body.code).toBe('agentRetrieval.NotFound.MCPServerNotFound');
    const broken = await request(app.url)
      .post(`${PROXY}/mcp/proxy/broken/tools/x/call`)
      .set(INTERNAL_CALLER)
      .send({})
      .expect(502);
    expect(broken.body.code).toBe('agentRetrieval.BadGateway.UpstreamBadResponse');
    const slow = await request(app.url)
      .post(`${PROXY}/mcp/proxy/mcp-001/tools/lookup_disease/call`)
      .set(INTERNAL_CALLER)
      .send({ disease_id: 'slow' })
      .expect(504);
    expect(slow.body.code).toBe('agentRetrieval.GatewayTimeout.UpstreamTimeout');
  });

  it('answers 502 when AOI is down', async () => {
    await peer.stop();
    const response = await request(app.url)
      .post(`${PROXY}/mcp/proxy/mcp-001/tools/lookup_disease/call`)
      .set(INTERNAL_CALLER)
      .send({})
      .expect(502);
    expect(response.body.code).toBe('agentRetrieval.BadGateway.UpstreamUnreachable');
    await expect(recall('tool')).rejects.toMatchObject({ status: 502 });
    const metrics = await request(app.url).get('/metrics').expect(200);
    expect(metrics.text).toMatch(
      /agent_retrieval_operator_upstream_calls_total\{adapter="kweaver",operation="mcp_tool_detail",outcome="upstream_error"\} \d+/,
    );
  });
});
