import { Logger } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { runWithRequestContext } from '../common/context/request-context';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { ActionQueryResult } from '../knowledge-network/knowledge-network.types';
import { MetricsService } from '../metrics/metrics.service';
import { OperatorErrors } from '../operators/operator.errors';
import { OperatorPort } from '../operators/operator.port';
import { McpToolDetail, ToolDetail } from '../operators/operator.types';
import { InputLimits } from '../common/limits/input-limits';
import { testConfig } from '../../test/support/unit/config';
import { mockPort } from '../../test/support/unit/mocks';
import { ActionRecallService } from './actionrecall.service';

const config = testConfig();

const nodeSchema = {
  $defs: {
    Node: { type: 'object', properties: { value: { type: 'string' }, child: { $ref: '#/$defs/Node' } } },
  },
  properties: { root: { $ref: '#/$defs/Node' } },
};

const restartSpec: ToolDetail = {
  name: 'restart_pod',
  description: 'Restart a pod',
  api_spec: {
    parameters: [{ name: 'pod_name', in: 'query', required: true, schema: { type: 'string' } }],
    request_body: {
      content: { 'application/json': { schema: { type: 'object', properties: { namespace: { type: 'string' } } } } },
    },
  },
};

function fakes(actions: ActionQueryResult) {
  const kn = mockPort(KnowledgeNetworkPort, { queryActions: async () => actions });
  const mcpTool: McpToolDetail = { name: 'test_tool', description: 'A test tool', inputSchema: nodeSchema };
  const operators = mockPort(OperatorPort, {
    kind: 'fake',
    getToolDetail: async () => restartSpec,
    getMcpToolDetail: (_id: string, name: string) =>
      name === mcpTool.name
        ? Promise.resolve(mcpTool)
        : Promise.reject(new AppException(OperatorErrors.McpToolNotFound, name)),
    toolProxyUrl: (box: string, tool: string) =>
      `http://aoi:9000/api/agent-operator-integration/internal-v1/tool-box/${box}/proxy/${tool}`,
  });
  const metrics = new MetricsService(config.metrics);
  const service = new ActionRecallService(kn, operators, config.operators, metrics, new InputLimits(config.limits));
  return { service, queryActions: kn.queryActions, operators, metrics };
}

const asUser = <T>(fn: () => Promise<T>): Promise<T> =>
  runWithRequestContext({ requestId: 'r-1', language: 'en-US', account: { id: 'u1', type: 'user' } }, fn);

describe('ActionRecallService', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('recalls an MCP action: inlined schema, proxy api_url, flat fixed params', async () => {
    const { service, queryActions } = fakes({
      action_source: { type: 'mcp', mcp_id: 'mcp-001', tool_name: 'test_tool' },
      actions: [{ parameters: { disease_id: 'D1' } }, { parameters: { disease_id: 'D2' } }],
    });
    const response = await asUser(() =>
      service.getActionInfo({ kn_id: 'kn-001', at_id: 'at-001', _instance_identity: { id: 'obj-001' } }),
    );
    expect(queryActions).toHaveBeenCalledWith('kn-001', 'at-001', [{ id: 'obj-001' }]);
    expect(response).toEqual({
      headers: { 'x-account-id': 'u1', 'x-account-type': 'user' },
      _dynamic_tools: [
        {
          name: 'test_tool',
          description: 'A test tool',
          parameters: {
            type: 'object',
            properties: {
              root: { type: 'object', properties: { value: { type: 'string' }, child: { type: 'object' } } },
            },
          },
          api_url: 'http://agent-retrieval:30779/api/agent-retrieval/in/v1/mcp/proxy/mcp-001/tools/test_tool/call',
          original_schema: nodeSchema,
          fixed_params: { disease_id: 'D1' },
          api_call_strategy: 'kn_action_recall',
        },
      ],
    });
  });

  it('recalls a toolbox action: layered parameters, fixed params by location, the adapter api_url', async () => {
    const { service } = fakes({
      action_source: { type: 'tool', box_id: 'box-001', tool_id: 'tool-001' },
      actions: [{ parameters: { pod_name: 'p-1', param1: 'value1', 'x-trace': 't' } }],
    });
    const [tool] = (await asUser(() => service.getActionInfo({ kn_id: 'kn-001', at_id: 'at-001' })))._dynamic_tools;
    expect(tool.api_url).toBe(
      'http://aoi:9000/api/agent-operator-integration/internal-v1/tool-box/box-001/proxy/tool-001',
    );
    expect(Object.keys(tool.parameters.properties as object)).toEqual(['query', 'body']);
    expect(tool.fixed_params).toEqual({
      header: { 'x-trace': 't' },
      path: {},
      query: { pod_name: 'p-1' },
      body: { param1: 'value1' },
    });
    expect(tool.original_schema).toBe(restartSpec.api_spec);
    expect(Object.keys(tool)).toEqual([
      'name',
      'description',
      'parameters',
      'api_url',
      'original_schema',
      'fixed_params',
      'api_call_strategy',
    ]);
  });

  it('prefers a non-empty _instance_identities and sends [] when there is none', async () => {
    const { service, queryActions } = fakes({ actions: [] });
    await service.getActionInfo({
      kn_id: 'k',
      at_id: 'a',
      _instance_identity: { id: 1 },
      _instance_identities: [{ id: 2 }, {}],
    });
    await service.getActionInfo({ kn_id: 'k', at_id: 'a', _instance_identities: [] });
    expect(queryActions.mock.calls.map((call) => call[2])).toEqual([[{ id: 2 }], []]);
  });

  it('answers an empty tool list when there is no source or no action', async () => {
    for (const result of [{ actions: [{ parameters: {} }] }, { action_source: { type: 'mcp' }, actions: [] }]) {
      const { service } = fakes(result);
      expect(await service.getActionInfo({ kn_id: 'k', at_id: 'a' })).toEqual({
        headers: { 'x-account-id': '', 'x-account-type': 'anonymous' },
        _dynamic_tools: [],
      });
    }
  });

  it('rejects an unsupported source type with UnsupportedActionSource', async () => {
    const { service } = fakes({ action_source: { type: 'unsupported_type' }, actions: [{ parameters: {} }] });
    await expect(service.getActionInfo({ kn_id: 'k', at_id: 'a' })).rejects.toMatchObject({
      status: 400,
      definition: { code: 'agentRetrieval.BadRequest.UnsupportedActionSource' },
    });
  });

  it('passes the operator 404 for a missing MCP tool through', async () => {
    const { service } = fakes({
      action_source: { type: 'mcp', mcp_id: 'm', tool_name: 'gone' },
      actions: [{ parameters: {} }],
    });
    await expect(service.getActionInfo({ kn_id: 'k', at_id: 'a' })).rejects.toMatchObject({
      status: 404,
      definition: { code: 'agentRetrieval.NotFound.MCPToolNotFound' },
    });
  });

  it('turns a conversion failure into a 500 SchemaConversionFailed and counts it', async () => {
    const { service, operators, metrics } = fakes({
      action_source: { type: 'tool', box_id: 'b', tool_id: 't' },
      actions: [{ parameters: {} }],
    });
    operators.getToolDetail.mockResolvedValue({
      name: 'dup',
      description: '',
      api_spec: {
        parameters: [
          { name: 'id', in: 'path' },
          { name: 'id', in: 'query' },
        ],
      },
    });
    await expect(service.getActionInfo({ kn_id: 'k', at_id: 'a' })).rejects.toMatchObject({
      status: 500,
      definition: { code: 'agentRetrieval.InternalServerError.SchemaConversionFailed' },
    });
    const text = await metrics.registry.getSingleMetricAsString('agent_retrieval_schema_conversions_total');
    expect(text).toContain('agent_retrieval_schema_conversions_total{source="tool",outcome="failed"} 1');
  });

  it('requires at_id (kn_id arrives resolved: kn-id.spec.ts)', async () => {
    const { service } = fakes({ actions: [] });
    await expect(service.getActionInfo({ kn_id: 'k', at_id: '' })).rejects.toMatchObject({
      message: 'at_id is required',
    });
  });
});
