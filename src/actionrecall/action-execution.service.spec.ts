import { Logger } from '@nestjs/common';
import { runWithRequestContext } from '../common/context/request-context';
import { InputLimits } from '../common/limits/input-limits';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { ActionSource, ActionType, SubgraphResult } from '../knowledge-network/knowledge-network.types';
import { McpProxyService } from '../mcpproxy/mcp-proxy.service';
import { ToolboxProxyService } from '../mcpproxy/toolbox-proxy.service';
import { MetricsService } from '../metrics/metrics.service';
import { OperatorPort } from '../operators/operator.port';
import { testConfig } from '../../test/support/unit/config';
import { mockPort } from '../../test/support/unit/mocks';
import { ActionAudit } from './action-audit';
import { ActionConditionChecker } from './action-condition-checker';
import { ActionExecutionService } from './action-execution.service';
import { ActionRecallService } from './actionrecall.service';
import { ExecuteActionRequest } from './actionrecall.types';
import type { ApprovalAnswer, ApprovalQuestion, HumanChannel } from './action-approval';

const config = testConfig({ MAX_JSON_DEPTH: '8' });

const PRESCRIBE_SCHEMA = {
  type: 'object',
  properties: {
    patient_id: { type: 'string' },
    clinic_code: { type: 'string' },
    drug_id: { type: 'string' },
    days_supply: { type: 'integer', minimum: 1, maximum: 90 },
  },
  required: ['patient_id', 'drug_id'],
};

const MCP_SOURCE: ActionSource = { type: 'mcp', mcp_id: 'clinic_tools', tool_name: 'create_prescription' };

const PRESCRIBE: ActionType = {
  id: 'create_prescription',
  name: '开具处方',
  object_type_id: 'patient',
  action_type: 'add',
  parameters: [],
  risk_level: 'medium',
  requires_approval: true,
  pre_conditions: [
    { object_type_id: 'patient', relation_type_id: 'patient_diagnosed_with', operation: 'exist', message: '须有诊断' },
  ],
};

interface Options {
  type?: ActionType;
  source?: ActionSource;
  bound?: boolean;
  related?: boolean;
  instance?: Record<string, unknown>;
}

function fakes(options: Options = {}) {
  const type = options.type ?? PRESCRIBE;
  const subgraph: SubgraphResult = {
    entries: [
      { objects: {}, relation_paths: options.related === false ? [] : [{ relations: [{} as never] }], total_count: 1 },
    ],
  };
  const kn = mockPort(KnowledgeNetworkPort, {
    queryActions: async () => ({
      action_type: type,
      action_source: options.source ?? MCP_SOURCE,
      actions:
        options.bound === false
          ? []
          : [{ parameters: { patient_id: 'P1', clinic_code: 'HZ' }, _instance_identity: { patient_id: 'P1' } }],
    }),
    queryInstances: async () => ({ datas: options.instance ? [{ ...options.instance, _instance_identity: {} }] : [] }),
    exportSchema: async () => ({
      id: 'clinic',
      name: 'clinic',
      object_types: [],
      action_types: [],
      concept_groups: [],
      relation_types: [
        {
          id: 'patient_diagnosed_with',
          name: 'r',
          source_object_type_id: 'patient',
          target_object_type_id: 'diagnosis',
        },
      ],
    }),
    querySubgraph: async () => subgraph,
  });
  const operators = mockPort(OperatorPort, {
    kind: 'fake',
    getMcpToolDetail: async () => ({ name: 'create_prescription', description: 'd', inputSchema: PRESCRIBE_SCHEMA }),
    callMcpTool: async (_id: string, _tool: string, args: Record<string, unknown>) => ({
      content: [{ type: 'text', text: 'ok' }],
      structuredContent: args,
    }),
    getToolDetail: async () => ({
      name: 'bookAppointment',
      description: 'd',
      api_spec: { parameters: [{ name: 'dept_id', in: 'path', required: true, schema: { type: 'string' } }] },
    }),
    executeTool: async () => ({ status: 503, headers: {}, body: { error: 'down' } }),
    toolProxyUrl: () => 'http://x',
  });
  const metrics = new MetricsService(config.metrics);
  const limits = new InputLimits(config.limits);
  const recall = new ActionRecallService(kn, operators, config.operators, metrics, limits);
  const service = new ActionExecutionService(
    recall,
    new ActionConditionChecker(kn),
    new McpProxyService(operators, metrics),
    new ToolboxProxyService(operators),
    limits,
    new ActionAudit(metrics),
  );
  return { service, kn, operators, metrics };
}

const REQUEST: ExecuteActionRequest = {
  kn_id: 'clinic',
  at_id: 'create_prescription',
  _instance_identity: { patient_id: 'P1' },
  arguments: { drug_id: 'DR1', clinic_code: 'OTHER', days_supply: 7 },
  confirm: true,
};

const asUser = <T>(fn: () => Promise<T>): Promise<T> =>
  runWithRequestContext({ requestId: 'r-1', language: 'en-US', account: { id: 'u1', type: 'user' } }, fn);

describe('ActionExecutionService', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterEach(() => jest.restoreAllMocks());

  it('runs an MCP action with the fixed values merged and answers the documented shape', async () => {
    const { service, operators } = fakes();
    const answer = await service.execute(REQUEST);
    const sent = { drug_id: 'DR1', clinic_code: 'HZ', days_supply: 7, patient_id: 'P1' };
    expect(operators.callMcpTool).toHaveBeenCalledWith('clinic_tools', 'create_prescription', sent);
    expect(answer).toEqual({
      at_id: 'create_prescription',
      kn_id: 'clinic',
      action: { name: '开具处方', action_type: 'add', risk_level: 'medium', source: MCP_SOURCE },
      _instance_identity: { patient_id: 'P1' },
      arguments: sent,
      fixed_arguments: { applied: ['patient_id', 'clinic_code'], overridden: ['clinic_code'] },
      outcome: 'ok',
      result: { content: [{ type: 'text', text: 'ok' }], structuredContent: sent },
    });
  });

  it('checks the relation pre-condition through the port with the identity path', async () => {
    const { service, kn } = fakes({ related: false });
    await expect(service.execute(REQUEST)).rejects.toMatchObject({
      status: 409,
      definition: { code: 'agentRetrieval.Conflict.ActionPreconditionFailed' },
      details:
        'action create_prescription: pre-condition not met: patient.relation:patient_diagnosed_with exist: 须有诊断',
    });
    expect(kn.querySubgraph).toHaveBeenCalledWith('clinic', [
      {
        object_types: [
          {
            id: 'patient',
            condition: {
              operation: 'and',
              sub_conditions: [{ operation: '==', field: 'patient_id', value: 'P1', value_from: 'const' }],
            },
            limit: 1,
          },
          { id: 'diagnosis', limit: 1 },
        ],
        relation_types: [
          {
            relation_type_id: 'patient_diagnosed_with',
            source_object_type_id: 'patient',
            target_object_type_id: 'diagnosis',
          },
        ],
        limit: 1,
      },
    ]);
  });

  it('refuses a trigger condition that does not hold, naming the value found, and reads the instance once', async () => {
    const type: ActionType = {
      ...PRESCRIBE,
      pre_conditions: [{ field: 'age', operation: '>=', value: 18 }],
      trigger_condition: [{ field: 'status', operation: 'in', value: ['active'] }],
    };
    const { service, kn } = fakes({ type, instance: { status: 'archived', age: 40 } });
    await expect(service.execute(REQUEST)).rejects.toMatchObject({
      status: 409,
      definition: { code: 'agentRetrieval.Conflict.ActionTriggerConditionNotMet' },
      details: 'action create_prescription: trigger condition not met: status in ["active"] (found "archived")',
    });
    const { service: passing, kn: passingKn } = fakes({ type, instance: { status: 'active', age: 40 } });
    expect((await passing.execute(REQUEST)).outcome).toBe('ok');
    expect(passingKn.queryInstances).toHaveBeenCalledTimes(1);
    expect(kn.exportSchema).not.toHaveBeenCalled();
  });

  it('answers 500 ActionConditionInvalid for a condition it cannot evaluate, never skipping it', async () => {
    for (const condition of [
      { relation_type_id: 'no_such_relation', operation: 'exist' },
      { field: 'status', operation: 'matches' },
      { operation: '' },
    ]) {
      const { service, operators } = fakes({ type: { ...PRESCRIBE, pre_conditions: [condition] } });
      await expect(service.execute(REQUEST)).rejects.toMatchObject({
        status: 500,
        definition: { code: 'agentRetrieval.InternalServerError.ActionConditionInvalid' },
      });
      expect(operators.callMcpTool).not.toHaveBeenCalled();
    }
  });

  it('requires confirm for an approval-required or high-risk action, after arguments and conditions passed', async () => {
    const { service, operators, kn } = fakes();
    await expect(service.execute({ ...REQUEST, confirm: undefined })).rejects.toMatchObject({
      status: 403,
      details:
        'action create_prescription requires approval: repeat the call with confirm: true after the user approved it',
    });
    expect(kn.querySubgraph).toHaveBeenCalled();
    const risky = fakes({ type: { ...PRESCRIBE, requires_approval: false, risk_level: 'high' } });
    await expect(risky.service.execute({ ...REQUEST, confirm: false })).rejects.toMatchObject({
      definition: { code: 'agentRetrieval.Forbidden.ActionApprovalRequired' },
      details: expect.stringContaining('is high risk and requires approval'),
    });
    const plain = fakes({ type: { ...PRESCRIBE, requires_approval: false, risk_level: 'low' } });
    expect((await plain.service.execute({ ...REQUEST, confirm: undefined })).outcome).toBe('ok');
    expect(operators.callMcpTool).not.toHaveBeenCalled();
  });

  it('asks the human channel what will run and ignores the model’s confirm when the client has one', async () => {
    const { service, operators } = fakes();
    const asked: ApprovalQuestion[] = [];
    const human = (answer: ApprovalAnswer): HumanChannel => ({
      kind: 'elicitation',
      ask: async (question) => {
        asked.push(question);
        return answer;
      },
    });
    await expect(
      service.execute({ ...REQUEST, confirm: true, human: human('declined'), language: 'zh-Hans' }),
    ).rejects.toMatchObject({
      status: 403,
      definition: { code: 'agentRetrieval.Forbidden.ActionDeclined' },
      details: 'the user declined action create_prescription; it did not run',
    });
    expect(operators.callMcpTool).not.toHaveBeenCalled();
    expect(asked[0]).toMatchObject({
      knId: 'clinic',
      atId: 'create_prescription',
      actionName: '开具处方',
      actionType: 'add',
      riskLevel: 'medium',
      reason: 'requires_approval',
      instance: { patient_id: 'P1' },
      // The bound arguments: the network's fixed values over the caller's.
      arguments: { patient_id: 'P1', clinic_code: 'HZ', drug_id: 'DR1', days_supply: 7 },
      language: 'zh-Hans',
    });
    expect((await service.execute({ ...REQUEST, confirm: false, human: human('approved') })).outcome).toBe('ok');
    expect(operators.callMcpTool).toHaveBeenCalledTimes(1);
  });

  it('never asks the human for an action that needs no approval', async () => {
    const { service } = fakes({ type: { ...PRESCRIBE, requires_approval: false, risk_level: 'low' } });
    const ask = jest.fn();
    expect((await service.execute({ ...REQUEST, human: { kind: 'input_required', ask } })).outcome).toBe('ok');
    expect(ask).not.toHaveBeenCalled();
  });

  it('counts a decline as refused:declined', async () => {
    const { service, metrics } = fakes();
    const human: HumanChannel = { kind: 'elicitation', ask: async () => 'declined' };
    await expect(service.execute({ ...REQUEST, human })).rejects.toBeDefined();
    expect(await metrics.registry.getSingleMetricAsString('agent_retrieval_action_executions_total')).toContain(
      'action_executions_total{outcome="refused:declined"} 1',
    );
  });

  it('refuses invalid arguments with every violation before checking conditions or approval', async () => {
    const { service, kn } = fakes();
    await expect(
      service.execute({ ...REQUEST, arguments: { days_supply: 'abc' }, confirm: false }),
    ).rejects.toMatchObject({
      status: 400,
      definition: { code: 'agentRetrieval.BadRequest.InvalidActionArguments' },
      details: ['drug_id is required', 'days_supply must be integer'],
    });
    expect(kn.querySubgraph).not.toHaveBeenCalled();
  });

  it('refuses a disabled action before contacting the tool', async () => {
    const { service, operators } = fakes({ type: { ...PRESCRIBE, enabled: false } });
    await expect(service.execute(REQUEST)).rejects.toMatchObject({
      status: 403,
      definition: { code: 'agentRetrieval.Forbidden.ActionDisabled' },
    });
    expect(operators.getMcpToolDetail).not.toHaveBeenCalled();
  });

  it('answers 404 for an unknown instance and for an action with no source', async () => {
    await expect(fakes({ bound: false }).service.execute(REQUEST)).rejects.toMatchObject({
      status: 404,
      definition: { code: 'agentRetrieval.NotFound.ActionInstanceNotFound' },
    });
    const { service, kn } = fakes();
    kn.queryActions.mockResolvedValue({ action_type: PRESCRIBE, actions: [{ parameters: {} }] });
    await expect(service.execute(REQUEST)).rejects.toMatchObject({
      status: 404,
      definition: { code: 'agentRetrieval.NotFound.ActionNotExecutable' },
    });
  });

  it('checks the request before any work: identity, arguments type and size', async () => {
    const { service, kn } = fakes();
    const missing = { ...REQUEST, _instance_identity: undefined } as unknown as ExecuteActionRequest;
    await expect(service.execute(missing)).rejects.toMatchObject({ message: '_instance_identity is required' });
    await expect(service.execute({ ...REQUEST, _instance_identity: {} })).rejects.toMatchObject({ status: 400 });
    await expect(service.execute({ ...REQUEST, arguments: [] as never })).rejects.toMatchObject({
      details: 'arguments must be a JSON object',
    });
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 10; i++) deep = { deep };
    await expect(service.execute({ ...REQUEST, arguments: deep })).rejects.toMatchObject({
      definition: { code: 'agentRetrieval.BadRequest.LimitExceeded' },
    });
    await expect(service.execute({ ...REQUEST, arguments: { note: 'x'.repeat(2001) } })).rejects.toMatchObject({
      definition: { code: 'agentRetrieval.BadRequest.LimitExceeded' },
    });
    expect(kn.queryActions).not.toHaveBeenCalled();
  });

  it('runs a toolbox action with layered arguments and reports an HTTP error as tool_error', async () => {
    const source: ActionSource = { type: 'tool', box_id: 'clinic_toolbox', tool_id: 'bookAppointment' };
    const type: ActionType = { ...PRESCRIBE, requires_approval: false, pre_conditions: undefined };
    const { service, operators } = fakes({ type, source });
    const answer = await service.execute({ ...REQUEST, arguments: { dept_id: 'D01' } });
    expect(operators.executeTool).toHaveBeenCalledWith('clinic_toolbox', 'bookAppointment', {
      header: {},
      path: { dept_id: 'D01' },
      query: {},
      body: { patient_id: 'P1', clinic_code: 'HZ' },
    });
    expect(answer).toMatchObject({ outcome: 'tool_error', result: { status_code: 503, body: { error: 'down' } } });
  });

  it('counts every execution by outcome and logs nothing of its own (the capability audit line is the record)', async () => {
    const log = jest.spyOn(Logger.prototype, 'log');
    const { service, metrics } = fakes();
    await asUser(() => service.execute({ ...REQUEST, arguments: { ...REQUEST.arguments, secret: 's3cr3t' } }));
    await asUser(() => service.execute({ ...REQUEST, confirm: false })).catch(() => undefined);
    expect(JSON.stringify(log.mock.calls)).not.toContain('s3cr3t');
    expect(JSON.stringify(log.mock.calls)).not.toContain('P1');
    const text = await metrics.registry.getSingleMetricAsString('agent_retrieval_action_executions_total');
    expect(text).toContain('agent_retrieval_action_executions_total{outcome="ok"} 1');
    expect(text).toContain('agent_retrieval_action_executions_total{outcome="refused:approval_required"} 1');
  });
});

describe('ActionExecutionService.dryRun (check_action)', () => {
  beforeAll(() => Logger.overrideLogger(false));

  const { confirm: _confirm, ...DRY_RUN } = REQUEST;

  it('reports every condition with its verdict, even after one fails, and never calls the tool', async () => {
    const type: ActionType = {
      ...PRESCRIBE,
      trigger_condition: [{ field: 'status', operation: 'in', value: ['active'] }],
      pre_conditions: [
        { field: 'age', operation: '>=', value: 18, message: '须成年' },
        { object_type_id: 'patient', relation_type_id: 'patient_diagnosed_with', operation: 'exist' },
      ],
    };
    const { service, operators, kn } = fakes({ type, instance: { status: 'archived', age: 40 } });
    const answer = await service.dryRun(DRY_RUN);
    expect(answer.conditions).toEqual([
      { kind: 'trigger', condition: 'status in ["active"]', holds: false, found: '"archived"' },
      { kind: 'pre', condition: 'age >= 18', holds: true, found: '40', message: '须成年' },
      { kind: 'pre', condition: 'patient.relation:patient_diagnosed_with exist', holds: true },
    ]);
    expect(answer.would_run).toBe(false);
    expect(kn.queryInstances).toHaveBeenCalledTimes(1);
    expect(operators.callMcpTool).not.toHaveBeenCalled();
  });

  it('answers the merged arguments, each argument error and whether confirmation is needed', async () => {
    const { service } = fakes();
    const answer = await service.dryRun({ ...DRY_RUN, arguments: { days_supply: 200 } });
    expect(answer).toMatchObject({
      at_id: 'create_prescription',
      kn_id: 'clinic',
      action: { name: '开具处方', risk_level: 'medium', source: MCP_SOURCE },
      enabled: true,
      arguments: { days_supply: 200, patient_id: 'P1', clinic_code: 'HZ' },
      fixed_arguments: { applied: ['patient_id', 'clinic_code'], overridden: [] },
      requires_confirmation: true,
      would_run: false,
    });
    expect(answer.argument_errors).toEqual(
      expect.arrayContaining(['drug_id is required', expect.stringContaining('days_supply')]),
    );
  });

  it('would run an enabled action with valid arguments whose conditions all hold; a disabled one would not', async () => {
    const { service } = fakes();
    expect((await service.dryRun(DRY_RUN)).would_run).toBe(true);
    const low = fakes({ type: { ...PRESCRIBE, requires_approval: false, risk_level: 'low' } });
    expect((await low.service.dryRun(DRY_RUN)).requires_confirmation).toBe(false);
    const disabled = fakes({ type: { ...PRESCRIBE, enabled: false } });
    expect(await disabled.service.dryRun(DRY_RUN)).toMatchObject({ enabled: false, would_run: false });
  });

  it('still refuses what it cannot check: an unknown instance is 404, a bad identity 400', async () => {
    await expect(fakes({ bound: false }).service.dryRun(DRY_RUN)).rejects.toMatchObject({ status: 404 });
    await expect(fakes().service.dryRun({ ...DRY_RUN, _instance_identity: {} })).rejects.toMatchObject({
      status: 400,
    });
  });
});
