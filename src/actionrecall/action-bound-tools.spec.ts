import { Logger } from '@nestjs/common';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { ActionSource, ActionType, KnSchema, KnSummary } from '../knowledge-network/knowledge-network.types';
import { ActionBoundTools, boundToolName, operatorToolName } from './action-bound-tools';
import { mockPort } from '../../test/support/unit/mocks';

const summary = (id: string): KnSummary => ({
  id,
  name: id,
  object_type_count: 0,
  relation_type_count: 0,
  action_type_count: 0,
});

const action = (id: string, source?: ActionSource): ActionType => ({
  id,
  name: id,
  object_type_id: 'deployment',
  parameters: [],
  ...(source ? { action_source: source } : {}),
});

const schema = (id: string, actions: ActionType[]): KnSchema => ({
  id,
  name: id,
  object_types: [],
  relation_types: [],
  action_types: actions,
  concept_groups: [],
});

const SCHEMAS: Record<string, KnSchema> = {
  k8s_ops: schema('k8s_ops', [
    action('restart', { type: 'mcp', mcp_id: 'k8s_tools', tool_name: 'restart_deployment' }),
    action('scale', { type: 'mcp', mcp_id: 'k8s_tools', tool_name: 'scale_deployment' }),
    action('no_source'),
  ]),
  clinic: schema('clinic', [
    action('prescribe', { type: 'tool', box_id: 'clinic_box', tool_id: 'create_prescription' }),
    // Rows that name no tool: an incomplete mcp row, an incomplete tool row, an unknown kind.
    action('half_mcp', { type: 'mcp', mcp_id: 'k8s_tools' }),
    action('half_tool', { type: 'tool', tool_id: 'create_prescription' }),
    action('other', { type: 'http', mcp_id: 'x', tool_name: 'y' }),
  ]),
};

function networks() {
  return mockPort(KnowledgeNetworkPort, {
    listNetworks: async () => Object.keys(SCHEMAS).map(summary),
    exportSchema: async (knId: string) => SCHEMAS[knId],
  });
}

describe('operatorToolName / boundToolName', () => {
  it('names an operator tool <server>__<tool>', () => {
    expect(operatorToolName('k8s_tools', 'restart_deployment')).toBe('k8s_tools__restart_deployment');
  });

  it('names the tool an mcp or tool row binds, and nothing for an incomplete or other row', () => {
    expect(boundToolName({ type: 'mcp', mcp_id: 'k8s_tools', tool_name: 'restart' })).toBe('k8s_tools__restart');
    expect(boundToolName({ type: 'tool', box_id: 'box', tool_id: 'op' })).toBe('box__op');
    expect(boundToolName({ type: 'mcp', mcp_id: 'k8s_tools', tool_name: '' })).toBeUndefined();
    expect(boundToolName({ type: 'tool', box_id: 'box' })).toBeUndefined();
    expect(boundToolName({ type: 'mcp', box_id: 'box', tool_id: 'op' })).toBeUndefined();
    expect(boundToolName({ type: 'http', mcp_id: 'a', tool_name: 'b' })).toBeUndefined();
    expect(boundToolName(undefined)).toBeUndefined();
  });
});

describe('ActionBoundTools', () => {
  let now: jest.SpyInstance<number, []>;

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
  });

  afterEach(() => jest.restoreAllMocks());

  it('names the operator tools every network’s action types are bound to, of both kinds', async () => {
    const port = networks();
    await expect(new ActionBoundTools(port).names()).resolves.toEqual(
      new Set(['k8s_tools__restart_deployment', 'k8s_tools__scale_deployment', 'clinic_box__create_prescription']),
    );
    expect(port.exportSchema.mock.calls).toEqual([['k8s_ops'], ['clinic']]);
  });

  it('names none when no network binds a tool', async () => {
    const port = mockPort(KnowledgeNetworkPort, {
      listNetworks: async () => [summary('plain')],
      exportSchema: async () => schema('plain', [action('no_source')]),
    });
    await expect(new ActionBoundTools(port).names()).resolves.toEqual(new Set());
  });

  it('keeps the answer for a minute, then reads the networks again', async () => {
    const port = networks();
    const bound = new ActionBoundTools(port);
    const first = await bound.names();
    now.mockReturnValue(1_000_000 + 59_999);
    expect(await bound.names()).toBe(first);
    expect(port.listNetworks).toHaveBeenCalledTimes(1);
    now.mockReturnValue(1_000_000 + 60_000);
    const second = await bound.names();
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect(port.listNetworks).toHaveBeenCalledTimes(2);
  });

  it('shares one read between callers that ask at the same time', async () => {
    const port = networks();
    const bound = new ActionBoundTools(port);
    const [a, b] = await Promise.all([bound.names(), bound.names()]);
    expect(a).toBe(b);
    expect(port.listNetworks).toHaveBeenCalledTimes(1);
  });

  it.each([
    [
      'the network list',
      (port: jest.Mocked<KnowledgeNetworkPort>) => port.listNetworks.mockRejectedValueOnce(new Error('bkn down')),
    ],
    [
      'one network’s schema',
      (port: jest.Mocked<KnowledgeNetworkPort>) => port.exportSchema.mockRejectedValueOnce(new Error('bkn down')),
    ],
  ])('fails when %s cannot be read, and does not keep the failure', async (_case, fail) => {
    const port = networks();
    fail(port);
    const bound = new ActionBoundTools(port);
    await expect(bound.names()).rejects.toThrow('bkn down');
    // Within the minute: the failed read was not kept, so this reads again.
    await expect(bound.names()).resolves.toContain('k8s_tools__restart_deployment');
    expect(port.listNetworks).toHaveBeenCalledTimes(2);
  });
});
