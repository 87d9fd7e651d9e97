import { Logger } from '@nestjs/common';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { I18nService } from 'nestjs-i18n';
import type { Counter } from 'prom-client';
import { z } from 'zod';
import { CapabilityDefinition, defineCapability, DESTRUCTIVE, READ_ONLY } from '../../capabilities/capability';
import { bindCapability, Capability, CapabilityCatalog } from '../../capabilities/capability-catalog';
import { CallScope, CapabilityGateway } from '../../capabilities/capability-gateway';
import { advertisedInput } from '../../capabilities/capability-input';
import { AccountContext } from '../../common/auth/account';
import { ErrorPresenter } from '../../common/errors/error-presenter';
import { requiredText } from '../../common/http/required-text';
import { decodeToon } from '../../common/response-format/toon';
import { Door } from '../../capabilities/capability';
import { AccessPolicyService } from '../../governance/access-policy.service';
import { AuditLog } from '../../governance/audit-log';
import { MetricsService } from '../../metrics/metrics.service';
import { FunctionTool } from '../chat.types';
import { WRITE_FILE } from '../workspace/workspace.capabilities';
import { FIND_TOOLS_DEFINITION } from './find-tools';
import { OperatorTools } from './operator-tools';
import { ToolRegistry, ToolScope } from './tool-registry';
import { testConfig } from '../../../test/support/unit/config';

const AGENT: AccountContext = { id: 'agent-1', type: 'agent' };
const USER: AccountContext = { id: 'user-1', type: 'user' };

/** The agent may call read-only capabilities but never lookup_secret; everyone else has the default rule. */
const POLICY = { agent: { allow: ['@read_only'], deny: ['lookup_secret'], auto: ['@read_only'] } };

const FOUND = { datas: [{ name: '张三', age: 42 }] };

class Records {
  readonly find = jest.fn(async (_input: object): Promise<object> => FOUND);
  readonly secret = jest.fn(async (): Promise<object> => ({ secret: 'kept' }));
  readonly change = jest.fn(async (_input: object): Promise<object> => ({ changed: true }));
}

const words = (en: string, zh: string) => ({ 'en-US': en, 'zh-Hans': zh });

const FIND_RECORDS = defineCapability({
  name: 'find_records',
  title: words('Find records', '查找记录'),
  description: words('Finds records of a network', '查找网络中的记录'),
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  arguments: { query: requiredText().describe('What to look for') },
  output: z.looseObject({}),
  service: Records,
  run: (records, input) => records.find(input),
});

const LOOKUP_SECRET = defineCapability({
  name: 'lookup_secret',
  title: words('Look up a secret', '查找机密'),
  description: words('Read-only, but denied to agents', '只读，但不对代理开放'),
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  arguments: {},
  output: z.looseObject({}),
  service: Records,
  run: (records) => records.secret(),
});

const CHANGE_RECORD = defineCapability({
  name: 'change_record',
  title: words('Change a record', '修改记录'),
  description: words('Changes a record', '修改一条记录'),
  governance: 'act',
  annotations: DESTRUCTIVE,
  network: 'none',
  arguments: { id: z.string() },
  output: z.looseObject({}),
  text: 'json',
  service: Records,
  run: (records, input) => records.change(input),
});

const MCP_ONLY = defineCapability({
  name: 'mcp_only',
  title: words('MCP only', '仅 MCP'),
  description: words('Offered at the MCP door only', '仅在 MCP 提供'),
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  arguments: {},
  output: z.looseObject({}),
  doors: ['mcp'],
  service: Records,
  run: async () => ({}),
});

const POD_SCHEMA = { type: 'object', properties: { namespace: { type: 'string' } }, required: ['namespace'] };

/** An operator tool as OperatorTools lists it; it claims to be read-only. */
function operatorTool(run: () => Promise<unknown>, schema?: unknown): Capability {
  const definition: CapabilityDefinition = {
    name: 'k8s_tools__get_pods',
    title: words('k8s_tools__get_pods', 'k8s_tools__get_pods'),
    description: words('Lists pods', 'Lists pods'),
    governance: 'act',
    annotations: { ...READ_ONLY, openWorld: true },
    network: 'none',
    input: z.looseObject({}),
    inputJsonSchema: (schema ?? { $schema: 'https://json-schema.org/draft/2020-12/schema', ...POD_SCHEMA }) as Record<
      string,
      unknown
    >,
    output: z.looseObject({}),
    doors: ['chat', 'tool-api'],
    text: 'json',
    service: Records,
    run: () => run(),
  };
  return bindCapability(definition, undefined, true);
}

/** A catalog holding the given capabilities, listing per door as the real one does. */
function fakeCatalog(capabilities: Capability[]) {
  const list = jest.fn((door?: Door) =>
    capabilities.filter((capability) => !door || capability.definition.doors.includes(door)),
  );
  return { catalog: { list, get: (name: string) => capabilities.find((c) => c.name === name) }, list };
}

/** The presenter with translation keys for texts: the code and details are what these tests read. */
const presenter = () =>
  new ErrorPresenter({ translate: (key: string) => key } as unknown as I18nService, testConfig().i18n);

/** `accessPolicy`: ACCESS_POLICY as inline JSON or a file path (default: POLICY). */
function setup(
  options: {
    accessPolicy?: string;
    operatorRun?: () => Promise<unknown>;
    operatorSchema?: unknown;
    budget?: number;
  } = {},
) {
  const config = testConfig({
    ACCESS_POLICY: options.accessPolicy ?? JSON.stringify(POLICY),
    CHAT_TOOL_DEFINITIONS_BUDGET_BYTES: options.budget === undefined ? undefined : String(options.budget),
  });
  const metrics = new MetricsService(config.metrics);
  const policy = new AccessPolicyService(config.governance);
  const gateway = new CapabilityGateway(policy, new AuditLog(metrics), config.limits);
  const records = new Records();
  const bind = (definition: object) => bindCapability(definition as CapabilityDefinition, records);
  const { catalog, list } = fakeCatalog([
    bind(FIND_RECORDS),
    bind(LOOKUP_SECRET),
    bind(CHANGE_RECORD),
    bind(MCP_ONLY),
    bind(WRITE_FILE),
  ]);
  const operatorRun = jest.fn(options.operatorRun ?? (async () => ({ content: [{ type: 'text', text: 'pods' }] })));
  const operators = {
    list: async () => [operatorTool(operatorRun, options.operatorSchema)],
  } as unknown as OperatorTools;
  const registry = new ToolRegistry(
    catalog as unknown as CapabilityCatalog,
    gateway,
    operators,
    presenter(),
    config.chat,
  );
  const scope = (principal: AccountContext, overrides: Partial<ToolScope> = {}): ToolScope => {
    const call: CallScope = {
      door: 'chat',
      principal,
      headers: { 'x-kn-id': 'clinic' },
      language: 'en-US',
      requestId: 'req-1',
    };
    return { call, language: 'en-US', clientTools: [], ...overrides };
  };
  const counted = async () => {
    const counter = metrics.registry.getSingleMetric('agent_retrieval_capability_calls_total') as Counter<string>;
    return (await counter.get()).values.map(({ labels, value }) => ({ ...labels, value }));
  };
  return { registry, records, scope, list, counted, policy, operatorRun };
}

const offered = (definitions: FunctionTool[]): string[] => definitions.map((tool) => tool.function.name);

describe('ToolRegistry', () => {
  beforeAll(() => Logger.overrideLogger(false));

  describe('what a request is offered', () => {
    it('offers the chat door’s capabilities and the operator tools the policy allows, each marked by kind', async () => {
      const { registry, scope, list } = setup();
      const tools = await registry.forRequest(scope(USER));
      expect(list).toHaveBeenCalledWith('chat');
      expect(offered(tools.definitions())).toEqual([
        'find_records',
        'lookup_secret',
        'change_record',
        'write_file',
        'k8s_tools__get_pods',
      ]);
      expect(tools.size).toBe(5);
      expect(
        ['find_records', 'change_record', 'write_file', 'k8s_tools__get_pods'].map((name) => {
          const tool = tools.get(name)!;
          return [name, tool.kind, tool.mode, tool.readOnly];
        }),
      ).toEqual([
        ['find_records', 'server', 'auto', true],
        ['change_record', 'server', 'confirm', false],
        ['write_file', 'workspace', 'auto', false],
        // Its server says read-only; that is never trusted.
        ['k8s_tools__get_pods', 'operator', 'confirm', false],
      ]);
    });

    it('does not offer what the policy denies the caller', async () => {
      const { registry, scope } = setup();
      const tools = await registry.forRequest(scope(AGENT));
      expect(offered(tools.definitions())).toEqual(['find_records']);
      expect(tools.size).toBe(1);
      expect(tools.get('find_records')?.mode).toBe('auto');
    });

    it('keeps a denied capability in the set, unoffered, so a call to it is refused and audited', async () => {
      const { registry, records, scope, counted } = setup();
      const tools = await registry.forRequest(scope(AGENT));
      const denied = tools.get('lookup_secret')!;
      expect([denied.mode, denied.kind]).toEqual(['denied', 'server']);
      const outcome = await denied.run!({});
      expect(outcome.success).toBe(false);
      expect(JSON.parse(outcome.content)).toMatchObject({
        code: 'agentRetrieval.Forbidden.ToolDenied',
        details: 'lookup_secret is not allowed for account type "agent" (rule agent.deny "lookup_secret")',
      });
      denied.handOver!({});
      await new Promise((resolve) => setImmediate(resolve));
      expect(records.secret).not.toHaveBeenCalled();
      expect(await counted()).toEqual([
        { door: 'chat', capability: 'lookup_secret', decision: 'denied', outcome: 'not_run', value: 2 },
      ]);
    });

    it('marks what runs unasked and what the client confirms by the policy', async () => {
      const { registry, scope } = setup({
        accessPolicy: JSON.stringify({ user: { allow: ['*', 'k8s_tools__*'], auto: ['k8s_tools__*'] } }),
      });
      const tools = await registry.forRequest(scope(USER));
      expect(['find_records', 'write_file', 'k8s_tools__get_pods'].map((name) => tools.get(name)?.mode)).toEqual([
        'confirm',
        'confirm',
        'auto',
      ]);
    });

    it('lets a client tool win a name it shares with a server tool', async () => {
      const { registry, scope } = setup();
      const client: FunctionTool = { type: 'function', function: { name: 'find_records', description: 'client side' } };
      const tools = await registry.forRequest(scope(USER, { clientTools: [client] }));
      const tool = tools.get('find_records')!;
      expect([tool.kind, tool.mode, tool.readOnly, tool.run, tool.capability]).toEqual([
        'client',
        'client',
        false,
        undefined,
        undefined,
      ]);
      expect(tools.definitions().filter((definition) => definition.function.name === 'find_records')).toEqual([client]);
      expect(tools.size).toBe(5);
    });

    it('offers a client tool beside the server tools', async () => {
      const { registry, scope } = setup();
      const client: FunctionTool = { type: 'function', function: { name: 'get_location' } };
      const tools = await registry.forRequest(scope(AGENT, { clientTools: [client] }));
      expect(offered(tools.definitions())).toEqual(['find_records', 'get_location']);
    });
  });

  describe('definitions', () => {
    it('carry the capability’s input JSON Schema without $schema and the description in the requested language', async () => {
      const { registry, scope } = setup();
      const tools = await registry.forRequest(scope(USER, { language: 'zh-Hans' }));
      const { $schema: dialect, ...parameters } = advertisedInput(FIND_RECORDS);
      expect(dialect).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(tools.get('find_records')!.definition).toEqual({
        type: 'function',
        function: { name: 'find_records', description: '查找网络中的记录', parameters },
      });
      expect(parameters).toMatchObject({
        type: 'object',
        properties: { query: { type: 'string', description: 'What to look for' } },
        required: ['query'],
      });
      const english = await registry.forRequest(scope(USER));
      expect(english.get('find_records')!.definition.function.description).toBe('Finds records of a network');
    });

    it('carry an operator tool’s own schema, without $schema', async () => {
      const { registry, scope } = setup();
      const tools = await registry.forRequest(scope(USER));
      expect(tools.get('k8s_tools__get_pods')!.definition.function.parameters).toEqual(POD_SCHEMA);
    });

    it('offer an operator schema with a dangling $ref as any value there, and log it once per tool', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      try {
        const schema = { type: 'object', properties: { pod: { $ref: '#/$defs/Pod' }, ns: { type: 'string' } } };
        const { registry, scope } = setup({ operatorSchema: schema });
        const first = await registry.forRequest(scope(USER));
        await registry.forRequest(scope(USER));
        expect(first.get('k8s_tools__get_pods')!.definition.function.parameters).toEqual({
          type: 'object',
          properties: {
            pod: { description: 'Unresolved schema reference "#/$defs/Pod": any JSON value.' },
            ns: { type: 'string' },
          },
        });
        expect(warn.mock.calls.map(([message]) => message)).toEqual([
          'tool k8s_tools__get_pods: schema references #/$defs/Pod not found; offered as any value',
        ]);
      } finally {
        warn.mockRestore();
      }
    });

    it('offer a tool whose schema is no object schema with any object, saying so in its description', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      try {
        const { registry, scope } = setup({ operatorSchema: { type: 'string' } });
        const tools = await registry.forRequest(scope(USER));
        await registry.forRequest(scope(USER));
        expect(tools.get('k8s_tools__get_pods')!.definition.function).toEqual({
          name: 'k8s_tools__get_pods',
          description: 'Lists pods (Its argument schema could not be read: pass the arguments this description names.)',
          parameters: { type: 'object', properties: {}, additionalProperties: true },
        });
        expect(warn).toHaveBeenCalledTimes(1);
      } finally {
        warn.mockRestore();
      }
    });

    it('are built once per capability and language', async () => {
      const { registry, scope } = setup();
      const first = await registry.forRequest(scope(USER));
      const second = await registry.forRequest(scope(AGENT));
      expect(second.get('find_records')!.definition).toBe(first.get('find_records')!.definition);
    });
  });

  describe('the offer within the definitions budget', () => {
    const hints = (content: string, toolChoice?: string): Partial<ToolScope> => ({
      offer: { knId: 'clinic', messages: [{ role: 'user', content }], toolChoice },
    });
    const bytes = (definitions: FunctionTool[]) =>
      definitions.reduce((sum, definition) => sum + Buffer.byteLength(JSON.stringify(definition)), 0);
    const sizeOf = async (name: string) => {
      const { registry, scope } = setup();
      return bytes([(await registry.forRequest(scope(USER))).get(name)!.definition]);
    };

    it('offers find_tools first, then the most relevant tools that fit, and keeps the rest callable', async () => {
      const budget = bytes([FIND_TOOLS_DEFINITION]) + (await sizeOf('k8s_tools__get_pods')) + 10;
      const { registry, scope } = setup({ budget });
      const tools = await registry.forRequest(scope(USER, hints('list the pods')));
      expect(offered(tools.definitions())).toEqual(['find_tools', 'k8s_tools__get_pods']);
      expect(bytes(tools.definitions())).toBeLessThanOrEqual(budget);
      expect(tools.size).toBe(2);
      expect(offered(tools.all())).toEqual([
        'find_tools',
        'find_records',
        'lookup_secret',
        'change_record',
        'write_file',
        'k8s_tools__get_pods',
      ]);
    });

    it('find_tools lists the matching tools and offers them from the next call on', async () => {
      const { registry, scope } = setup({ budget: 1024 });
      const tools = await registry.forRequest(scope(USER, hints('hello')));
      expect(offered(tools.definitions())).not.toContain('find_records');
      const outcome = await tools.get('find_tools')!.run!({ query: 'records of a network' });
      expect(outcome).toEqual({
        success: true,
        content: expect.stringContaining('- find_records: Finds records of a network'),
      });
      expect(outcome.content.split('\n')[0]).toBe('Offered from your next call on:');
      expect(offered(tools.definitions())).toContain('find_records');
    });

    it('find_tools without a match names the tools not offered yet; without a query it asks for one', async () => {
      const { registry, scope } = setup({ budget: 1024 });
      const tools = await registry.forRequest(scope(AGENT, hints('hello')));
      const findTools = tools.get('find_tools')!;
      // lookup_secret is denied to agents: never found, never named, never offered.
      await expect(findTools.run!({ query: 'secret' })).resolves.toEqual({
        success: true,
        content: 'No tool matches "secret". Tools not offered yet: find_records.',
      });
      expect((await findTools.run!({})).success).toBe(false);
      expect(tools.get('lookup_secret')!.mode).toBe('denied');
      expect(offered(tools.definitions())).not.toContain('lookup_secret');
    });

    it('runs a call to an allowed tool that was not offered, and offers it from then on', async () => {
      const { registry, records, scope } = setup({ budget: 1024 });
      const tools = await registry.forRequest(scope(USER, hints('hello')));
      expect(offered(tools.definitions())).not.toContain('find_records');
      const outcome = await tools.get('find_records')!.run!({ query: '张三' });
      expect(outcome.success).toBe(true);
      expect(records.find).toHaveBeenCalledTimes(1);
      expect(offered(tools.definitions())).toContain('find_records');
    });

    it('offers the tool_choice tool whatever the budget', async () => {
      const { registry, scope } = setup({ budget: 1024 });
      const tools = await registry.forRequest(scope(USER, hints('hello', 'change_record')));
      expect(offered(tools.definitions())).toContain('change_record');
    });

    it('offers every tool and no find_tools with a budget of 0, and to the tool API (no offer)', async () => {
      const { registry, scope } = setup({ budget: 0 });
      const all = ['find_records', 'lookup_secret', 'change_record', 'write_file', 'k8s_tools__get_pods'];
      expect(offered((await registry.forRequest(scope(USER, hints('hello')))).definitions())).toEqual(all);
      const limited = setup({ budget: 1024 });
      expect(offered((await limited.registry.forRequest(limited.scope(USER))).definitions())).toEqual(all);
    });
  });

  describe('run', () => {
    it('runs through the gateway and answers TOON by default, JSON when asked', async () => {
      const { registry, records, scope } = setup();
      const tool = (await registry.forRequest(scope(USER))).get('find_records')!;
      const toon = await tool.run!({ query: '张三' });
      expect(toon.success).toBe(true);
      expect(decodeToon(toon.content)).toEqual(FOUND);
      await expect(tool.run!({ query: '张三', response_format: 'json' })).resolves.toEqual({
        success: true,
        content: JSON.stringify(FOUND),
      });
      expect(records.find).toHaveBeenCalledTimes(2);
    });

    it('answers a refused call with success false and the error body as JSON', async () => {
      const { registry, records, scope } = setup();
      const tool = (await registry.forRequest(scope(AGENT))).get('find_records')!;
      const invalid = await tool.run!({});
      expect(invalid.success).toBe(false);
      expect(JSON.parse(invalid.content)).toMatchObject({
        code: 'agentRetrieval.BadRequest.ValidationRequired',
        details: 'validation.requiredField',
      });
      const text = await tool.run!('{"query":');
      expect(JSON.parse(text.content)).toMatchObject({ code: 'agentRetrieval.BadRequest.InvalidJson' });
      expect(records.find).not.toHaveBeenCalled();
    });

    it('decides a call when it runs: a policy reloaded since the tool set was built refuses it', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tool-registry-'));
      const file = path.join(dir, 'policy.json');
      try {
        fs.writeFileSync(file, JSON.stringify({ agent: { allow: ['@read_only'] } }));
        const { registry, records, scope, policy, counted } = setup({ accessPolicy: file });
        const tool = (await registry.forRequest(scope(AGENT))).get('lookup_secret')!;
        fs.writeFileSync(file, JSON.stringify({ agent: { allow: ['@read_only'], deny: ['lookup_*'] } }));
        expect(policy.reload('test')).toBe(true);
        const outcome = await tool.run!({});
        expect(outcome.success).toBe(false);
        expect(JSON.parse(outcome.content)).toMatchObject({
          code: 'agentRetrieval.Forbidden.ToolDenied',
          details: 'lookup_secret is not allowed for account type "agent" (rule agent.deny "lookup_*")',
        });
        expect(records.secret).not.toHaveBeenCalled();
        expect(await counted()).toEqual([
          { door: 'chat', capability: 'lookup_secret', decision: 'denied', outcome: 'not_run', value: 1 },
        ]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it.each([
      ['isError', { isError: true, content: [{ type: 'text', text: 'namespace prod not found' }] }],
      ['outcome tool_error', { outcome: 'tool_error', content: [] }],
    ])('answers success false for a result whose tool reported a failure (%s)', async (_case, value) => {
      const { registry, scope } = setup({ operatorRun: async () => value });
      const tool = (await registry.forRequest(scope(USER))).get('k8s_tools__get_pods')!;
      await expect(tool.run!({ namespace: 'prod' })).resolves.toEqual({
        success: false,
        content: JSON.stringify(value),
      });
    });

    it('hands a confirm call over without running it, audited as confirm', async () => {
      const { registry, records, scope, counted } = setup();
      const tool = (await registry.forRequest(scope(USER))).get('change_record')!;
      expect(tool.mode).toBe('confirm');
      tool.handOver!({ id: 'r1' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(records.change).not.toHaveBeenCalled();
      expect(await counted()).toEqual([
        { door: 'chat', capability: 'change_record', decision: 'confirm', outcome: 'not_run', value: 1 },
      ]);
    });
  });
});
