import { Logger } from '@nestjs/common';
import { ActionBoundTools } from '../../actionrecall/action-bound-tools';
import { CapabilityContext } from '../../capabilities/capability';
import { renderResult } from '../../capabilities/capability-text';
import { OperatorPort } from '../../operators/operator.port';
import { McpToolDetail } from '../../operators/operator.types';
import { OperatorTools } from './operator-tools';
import { mockPort } from '../../../test/support/unit/mocks';

const detail = (name: string, annotations?: Record<string, unknown>): McpToolDetail => ({
  name,
  description: `${name} on the cluster`,
  inputSchema: { type: 'object', properties: { namespace: { type: 'string' } } },
  ...(annotations ? { annotations } : {}),
});

const SERVERS: Record<string, McpToolDetail[]> = {
  k8s_tools: [
    detail('restart_deployment'),
    detail('get_pods', { readOnlyHint: true, destructiveHint: false, idempotentHint: true }),
  ],
  clinic_tools: [detail('list_patients', { readOnlyHint: true })],
};

function operators(servers: Record<string, McpToolDetail[]> = SERVERS) {
  return mockPort(OperatorPort, {
    kind: 'embedded',
    mcpServerIds: () => Object.keys(servers),
    listMcpTools: async (mcpId: string) => {
      const tools = servers[mcpId];
      if (!tools) throw new Error(`MCP server ${mcpId} is not reachable`);
      return tools;
    },
    callMcpTool: async () => ({ content: [{ type: 'text', text: 'restarted' }] }),
  });
}

/** Bindings as ActionBoundTools reads them from the networks: restart_deployment runs only through execute_action. */
const bound = (answer: Promise<ReadonlySet<string>> = Promise.resolve(new Set(['k8s_tools__restart_deployment']))) => {
  const names = jest.fn(() => answer);
  return { tools: { names } as unknown as ActionBoundTools, names };
};

describe('OperatorTools', () => {
  let warn: jest.SpyInstance;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn');
  });
  afterEach(() => jest.restoreAllMocks());

  it('lists every server’s tools as <server>__<tool>, servers and tools in name order', async () => {
    const listed = await new OperatorTools(operators(), bound(Promise.resolve(new Set())).tools).list();
    expect(listed.map((tool) => tool.name)).toEqual([
      'clinic_tools__list_patients',
      'k8s_tools__get_pods',
      'k8s_tools__restart_deployment',
    ]);
  });

  it('never lists a tool an action is bound to', async () => {
    const listed = await new OperatorTools(operators(), bound().tools).list();
    expect(listed.map((tool) => tool.name)).toEqual(['clinic_tools__list_patients', 'k8s_tools__get_pods']);
  });

  it('lists no operator tool when the action bindings cannot be read (fail closed)', async () => {
    const port = operators();
    const listed = await new OperatorTools(port, bound(Promise.reject(new Error('bkn down'))).tools).list();
    expect(listed).toEqual([]);
    expect(port.listMcpTools).not.toHaveBeenCalled();
    expect(warn.mock.calls.map(([message]) => String(message))).toEqual([
      'operator tools left out of chat: the action bindings cannot be read (bkn down)',
    ]);
  });

  it('leaves out a server that fails to list its tools and keeps the others', async () => {
    const port = operators();
    port.mcpServerIds.mockReturnValue(['broken', 'k8s_tools']);
    const listed = await new OperatorTools(port, bound().tools).list();
    expect(listed.map((tool) => tool.name)).toEqual(['k8s_tools__get_pods']);
    expect(warn.mock.calls.map(([message]) => String(message))).toEqual([
      'MCP server "broken" left out of chat tools: MCP server broken is not reachable',
    ]);
  });

  it('asks nothing about bindings when no MCP server is configured', async () => {
    const { tools, names } = bound();
    await expect(new OperatorTools(operators({}), tools).list()).resolves.toEqual([]);
    expect(names).not.toHaveBeenCalled();
  });

  it('makes each tool an operator capability: operator subject, its own schema, chat and tool API only', async () => {
    const [getPods] = (await new OperatorTools(operators(), bound().tools).list()).filter(
      (tool) => tool.name === 'k8s_tools__get_pods',
    );
    expect(getPods.subject).toEqual({ name: 'k8s_tools__get_pods', readOnly: true, operator: true });
    const { definition } = getPods;
    expect(definition).toMatchObject({
      governance: 'act',
      network: 'none',
      doors: ['chat', 'tool-api'],
      inputJsonSchema: SERVERS.k8s_tools[1].inputSchema,
      description: { 'en-US': 'get_pods on the cluster', 'zh-Hans': 'get_pods on the cluster' },
      annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
    });
  });

  it('takes a tool without hints as destructive and not read-only', async () => {
    const port = operators();
    const [restart] = (await new OperatorTools(port, bound(Promise.resolve(new Set())).tools).list()).filter(
      (tool) => tool.name === 'k8s_tools__restart_deployment',
    );
    expect(restart.subject).toEqual({ name: 'k8s_tools__restart_deployment', readOnly: false, operator: true });
    expect(restart.definition.annotations).toEqual({
      readOnly: false,
      destructive: true,
      idempotent: false,
      openWorld: true,
    });
  });

  it('runs a tool on its own server under its own name, and renders its text blocks for the model', async () => {
    const port = operators();
    const [restart] = (await new OperatorTools(port, bound(Promise.resolve(new Set())).tools).list()).filter(
      (tool) => tool.name === 'k8s_tools__restart_deployment',
    );
    const result = await restart.run({ namespace: 'prod' }, {} as CapabilityContext);
    expect(port.callMcpTool).toHaveBeenCalledWith('k8s_tools', 'restart_deployment', { namespace: 'prod' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'restarted' }] });
    const mixed = {
      content: [
        { type: 'text', text: 'line 1' },
        { type: 'image', data: 'AA==' },
      ],
    };
    expect(renderResult(restart.definition, mixed, 'toon').blocks).toEqual(['line 1\n{"type":"image","data":"AA=="}']);
  });
});
