import { Logger } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { z } from 'zod';
import { AccountContext } from '../common/auth/account';
import { AppException } from '../common/errors/app.exception';
import { PublicErrors, ValidationErrors } from '../common/errors/error-codes';
import { LocalizedDetails } from '../common/errors/localized-details';
import { KN_ID_REQUIRED } from '../common/http/kn-id';
import { requiredText } from '../common/http/required-text';
import { AccessPolicyService } from '../governance/access-policy.service';
import { AuditLog } from '../governance/audit-log';
import { GovernanceErrors } from '../governance/governance.errors';
import { KnErrors, networkNotFound } from '../knowledge-network/knowledge-network.errors';
import { MetricsService } from '../metrics/metrics.service';
import { CapabilityContext, CapabilityDefinition, defineCapability, DESTRUCTIVE, READ_ONLY } from './capability';
import { bindCapability } from './capability-catalog';
import { CallScope, CapabilityGateway, ResultMemo } from './capability-gateway';
import { testConfig } from '../../test/support/unit/config';

/** The agent sees only the clinic network and may call read-only capabilities and k8s_tools, never lookup_secret. */
const POLICY = JSON.stringify({
  agent: {
    networks: ['clinic'],
    allow: ['@read_only', 'k8s_tools__*'],
    deny: ['lookup_secret'],
    auto: ['@read_only'],
  },
});
const AGENT: AccountContext = { id: 'agent-1', type: 'agent' };
/** Under the default rule: every network, every capability. */
const USER: AccountContext = { id: 'user-1', type: 'user' };

const FOUND = { datas: [{ name: '张三' }] };

/** The service the capabilities are bound to: a network it does not know is the adapters' 404. */
class Records {
  readonly networks = new Set(['clinic', 'k8s_ops', 'demo']);
  readonly find = jest.fn(async (knId: string, _input: object, _context: CapabilityContext): Promise<object> => {
    if (!this.networks.has(knId)) throw new AppException(...networkNotFound(knId));
    return FOUND;
  });
  readonly secret = jest.fn(async (_input: object): Promise<object> => ({ secret: 'kept' }));
  readonly export = jest.fn(async (input: object): Promise<object> => ({ exported: input }));
  readonly change = jest.fn(async (_input: object): Promise<object> => ({ changed: true }));
}

const text = (words: string) => ({ 'en-US': words, 'zh-Hans': words });

const FIND_RECORDS = defineCapability({
  name: 'find_records',
  title: text('Find records'),
  description: text('Finds records of a network'),
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  arguments: { query: requiredText(), limit: z.number().int().min(1).max(50).default(5) },
  output: z.looseObject({}),
  service: Records,
  run: (records, input, context) => records.find(context.knId, input, context),
});

const LOOKUP_SECRET = defineCapability({
  name: 'lookup_secret',
  title: text('Look up a secret'),
  description: text('Read-only, but denied to agents'),
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  arguments: {},
  output: z.looseObject({}),
  service: Records,
  run: (records, input) => records.secret(input),
});

const EXPORT_RECORDS = defineCapability({
  name: 'export_records',
  title: text('Export records'),
  description: text('Always answers JSON'),
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  arguments: { limit: z.number().int().optional() },
  output: z.looseObject({}),
  text: 'json',
  service: Records,
  run: (records, input) => records.export(input),
});

const CHANGE_RECORD = defineCapability({
  name: 'change_record',
  title: text('Change a record'),
  description: text('Changes the world'),
  governance: 'act',
  annotations: DESTRUCTIVE,
  network: 'required',
  arguments: { id: z.string() },
  output: z.looseObject({}),
  service: Records,
  run: (records, input) => records.change(input),
});

/** An operator tool: it claims to be read-only, and reads its arguments with its own hook. */
function operatorTool(run: jest.Mock<Promise<unknown>, [Record<string, unknown>]>) {
  const definition: CapabilityDefinition = {
    name: 'k8s_tools__get_pods',
    title: text('k8s_tools__get_pods'),
    description: text('Lists pods'),
    governance: 'act',
    annotations: { ...READ_ONLY, openWorld: true },
    network: 'none',
    input: z.looseObject({}),
    inputJsonSchema: { type: 'object' },
    readInput: (raw) => ({ raw }),
    output: z.looseObject({}),
    doors: ['chat', 'tool-api'],
    text: 'json',
    service: Records,
    run: (_service, input) => run(input as Record<string, unknown>),
  };
  return bindCapability(definition, new Records(), true);
}

class MapMemo implements ResultMemo {
  readonly entries = new Map<string, unknown>();
  get(key: string): unknown {
    return this.entries.get(key);
  }
  set(key: string, value: unknown): void {
    this.entries.set(key, value);
  }
}

function setup(env: Record<string, string> = {}) {
  const config = testConfig({ ACCESS_POLICY: POLICY, ...env });
  const metrics = new MetricsService(config.metrics);
  const gateway = new CapabilityGateway(
    new AccessPolicyService(config.governance),
    new AuditLog(metrics),
    config.limits,
  );
  const records = new Records();
  const bind = (definition: CapabilityDefinition) => bindCapability(definition, records);
  const scope = (overrides: Partial<CallScope> = {}): CallScope => ({
    door: 'mcp',
    principal: AGENT,
    headers: { 'x-kn-id': 'clinic' },
    language: 'en-US',
    requestId: 'req-1',
    ...overrides,
  });
  /** `agent_retrieval_capability_calls_total` as {door, capability, decision, outcome, value} rows. */
  const counted = async () => {
    const counter = metrics.registry.getSingleMetric('agent_retrieval_capability_calls_total') as Counter<string>;
    return (await counter.get()).values.map(({ labels, value }) => ({ ...labels, value }));
  };
  return {
    gateway,
    records,
    scope,
    counted,
    find: bind(FIND_RECORDS as CapabilityDefinition),
    secret: bind(LOOKUP_SECRET as CapabilityDefinition),
    exporting: bind(EXPORT_RECORDS as CapabilityDefinition),
    change: bind(CHANGE_RECORD as CapabilityDefinition),
  };
}

/** What a call throws, failing the test when it resolves. */
async function refusal(call: Promise<unknown>): Promise<AppException> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppException);
  return error as AppException;
}

describe('CapabilityGateway', () => {
  let audited: jest.SpyInstance[];

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    audited = [jest.spyOn(Logger.prototype, 'log'), jest.spyOn(Logger.prototype, 'warn')];
  });

  afterEach(() => jest.restoreAllMocks());

  /** The lines written by the audit logger, in order. */
  const auditLines = (): Record<string, unknown>[] =>
    audited
      .flatMap((spy) =>
        spy.mock.calls.map((call: unknown[], index: number) => ({
          context: (spy.mock.contexts[index] as { context?: string }).context,
          order: spy.mock.invocationCallOrder[index],
          line: call[0] as Record<string, unknown>,
        })),
      )
      .filter((entry) => entry.context === 'Audit')
      .sort((a, b) => a.order - b.order)
      .map((entry) => entry.line);

  it('runs an allowed call with the parsed input and the call’s context, and audits it', async () => {
    const { gateway, records, find, scope, counted } = setup();
    const outcome = await gateway.call(find, { query: ' 糖尿病 ' }, scope({ door: 'chat' }));
    expect(outcome).toEqual({ value: FOUND, knId: 'clinic' });
    expect(records.find).toHaveBeenCalledTimes(1);
    const [knId, input, context] = records.find.mock.calls[0];
    expect([knId, input]).toEqual(['clinic', { query: '糖尿病', limit: 5 }]);
    expect(context).toMatchObject({
      door: 'chat',
      principal: AGENT,
      knId: 'clinic',
      headers: { 'x-kn-id': 'clinic' },
      language: 'en-US',
    });
    expect([context.seesNetwork('clinic'), context.seesNetwork('k8s_ops')]).toEqual([true, false]);
    expect(await counted()).toEqual([
      { door: 'chat', capability: 'find_records', decision: 'allowed', outcome: 'ok', value: 1 },
    ]);
    expect(auditLines()).toEqual([
      expect.objectContaining({
        account_id: 'agent-1',
        account_type: 'agent',
        door: 'chat',
        capability: 'find_records',
        kn_id: 'clinic',
        decision: 'allowed',
        outcome: 'ok',
        request_id: 'req-1',
        arguments: { query: Buffer.byteLength(' 糖尿病 ') },
      }),
    ]);
  });

  it('exposes the policy’s decision and network visibility for the doors’ lists', () => {
    const { gateway, find, secret } = setup();
    expect(gateway.decide(find, AGENT)).toEqual({ allowed: true, mode: 'auto', rule: 'agent.allow "@read_only"' });
    expect(gateway.decide(secret, AGENT)).toEqual({ allowed: false, rule: 'agent.deny "lookup_secret"' });
    expect(gateway.seesNetwork(AGENT, 'k8s_ops')).toBe(false);
    expect(gateway.seesNetwork(USER, 'k8s_ops')).toBe(true);
  });

  describe('the access policy', () => {
    it('refuses a denied capability with ToolDenied naming the rule, runs nothing and audits it as denied', async () => {
      const { gateway, records, secret, scope, counted } = setup();
      const error = await refusal(gateway.call(secret, {}, scope()));
      expect(error.definition).toBe(GovernanceErrors.ToolDenied);
      expect(error.status).toBe(403);
      expect(error.details).toBe(
        'lookup_secret is not allowed for account type "agent" (rule agent.deny "lookup_secret")',
      );
      expect(records.secret).not.toHaveBeenCalled();
      expect(await counted()).toEqual([
        { door: 'mcp', capability: 'lookup_secret', decision: 'denied', outcome: 'not_run', value: 1 },
      ]);
      expect(auditLines()).toEqual([
        expect.objectContaining({
          decision: 'denied',
          outcome: 'not_run',
          error_code: 'agentRetrieval.Forbidden.ToolDenied',
        }),
      ]);
    });

    it('names the allow list when no allow pattern names the capability', async () => {
      const { gateway, records, change, scope } = setup();
      const error = await refusal(gateway.call(change, { id: 'r1' }, scope()));
      expect(error.definition).toBe(GovernanceErrors.ToolDenied);
      expect(error.details).toBe(
        'change_record is not allowed for account type "agent" (rule agent.allow (no pattern names it))',
      );
      expect(records.change).not.toHaveBeenCalled();
    });

    it('decides before anything else: denied arguments that are invalid, or a hidden network, are still ToolDenied', async () => {
      const { gateway, change, scope } = setup();
      expect((await refusal(gateway.call(change, 'not json', scope()))).definition).toBe(GovernanceErrors.ToolDenied);
      expect((await refusal(gateway.call(change, { kn_id: 'k8s_ops' }, scope()))).definition).toBe(
        GovernanceErrors.ToolDenied,
      );
    });

    it('answers a network outside the policy’s networks exactly as one that does not exist, running nothing', async () => {
      const { gateway, records, find, scope, counted } = setup();
      const hiddenScope = scope({ headers: { 'x-kn-id': 'k8s_ops' } });
      const hidden = await refusal(gateway.call(find, { query: 'pods' }, hiddenScope));
      expect(records.find).not.toHaveBeenCalled();
      expect(hiddenScope.resolvedKnId).toBe('k8s_ops');
      // For a principal who may see every network, the service itself answers that k8s_ops is unknown.
      records.networks.delete('k8s_ops');
      const unknown = await refusal(
        gateway.call(find, { query: 'pods' }, scope({ principal: USER, headers: { 'x-kn-id': 'k8s_ops' } })),
      );
      expect(records.find).toHaveBeenCalledTimes(1);
      expect(hidden.definition).toBe(KnErrors.NetworkNotFound);
      expect(hidden.status).toBe(404);
      expect([unknown.definition, unknown.details]).toEqual([hidden.definition, hidden.details]);
      expect(hidden.details).toBe(networkNotFound('k8s_ops')[1]);
      expect(await counted()).toEqual([
        { door: 'mcp', capability: 'find_records', decision: 'allowed', outcome: 'rejected', value: 2 },
      ]);
      expect(auditLines()[0]).toMatchObject({ kn_id: 'k8s_ops', error_code: KnErrors.NetworkNotFound.code });
    });
  });

  describe('kn_id', () => {
    it('takes the kn_id argument over the query string over the X-Kn-ID header', async () => {
      const { gateway, find, scope } = setup();
      const withUser = scope({ principal: USER, headers: { 'x-kn-id': 'demo' }, query: { kn_id: 'k8s_ops' } });
      expect((await gateway.call(find, { query: 'q', kn_id: 'clinic' }, withUser)).knId).toBe('clinic');
      expect((await gateway.call(find, { query: 'q' }, withUser)).knId).toBe('k8s_ops');
      expect((await gateway.call(find, { query: 'q' }, { ...withUser, query: undefined })).knId).toBe('demo');
    });

    it('skips a blank or null kn_id argument', async () => {
      const { gateway, find, scope } = setup();
      expect((await gateway.call(find, { query: 'q', kn_id: '  ' }, scope())).knId).toBe('clinic');
      expect((await gateway.call(find, { query: 'q', kn_id: null }, scope())).knId).toBe('clinic');
    });

    it('is the documented Required error when neither argument nor header gives one, and nothing runs', async () => {
      const { gateway, records, find, scope } = setup();
      const error = await refusal(gateway.call(find, { query: 'q' }, scope({ headers: {} })));
      expect(error.definition).toBe(ValidationErrors.Required);
      expect(error.details).toEqual(new LocalizedDetails('validation.knIdRequired', {}));
      expect(error.message).toBe(KN_ID_REQUIRED);
      expect(records.find).not.toHaveBeenCalled();
    });

    it('is not asked of a capability that needs no network', async () => {
      const { gateway, records, exporting, scope } = setup();
      await expect(gateway.call(exporting, {}, scope({ headers: {} }))).resolves.toEqual({
        value: { exported: {} },
        knId: '',
      });
      expect(records.export).toHaveBeenCalledTimes(1);
    });
  });

  describe('arguments', () => {
    it.each([
      [{}, ValidationErrors.Required, new LocalizedDetails('validation.requiredField', { field: 'query' })],
      [
        { query: '   ' },
        ValidationErrors.Required,
        new LocalizedDetails('validation.requiredField', { field: 'query' }),
      ],
      [
        { query: 'q', limit: 0 },
        ValidationErrors.Range,
        new LocalizedDetails('validation.min', { field: 'limit', limit: '1' }),
      ],
      [
        { query: 'q', limit: 'ten' },
        ValidationErrors.Type,
        new LocalizedDetails('validation.type', { field: 'limit', expected: 'number', received: 'string' }),
      ],
    ])('refuses %j with the validation error and runs nothing', async (args, definition, details) => {
      const { gateway, records, find, scope, counted } = setup();
      const error = await refusal(gateway.call(find, args, scope()));
      expect(error.definition).toBe(definition);
      expect(error.details).toEqual(details);
      expect(records.find).not.toHaveBeenCalled();
      expect(await counted()).toEqual([
        { door: 'mcp', capability: 'find_records', decision: 'allowed', outcome: 'rejected', value: 1 },
      ]);
    });

    it('drops null arguments as absent, so defaults apply', async () => {
      const { gateway, records, find, scope } = setup();
      await gateway.call(find, { query: 'q', limit: null }, scope());
      expect(records.find.mock.calls[0][1]).toEqual({ query: 'q', limit: 5 });
    });

    it('reads absent arguments as {}', async () => {
      const { gateway, records, exporting, scope } = setup();
      await gateway.call(exporting, undefined, scope());
      expect(records.export).toHaveBeenCalledWith({});
    });

    it('refuses arguments that arrived as text with InvalidJson', async () => {
      const { gateway, records, find, scope } = setup();
      const error = await refusal(gateway.call(find, '{"query": "q"', scope()));
      expect([error.definition, error.details]).toEqual([ValidationErrors.InvalidJson, 'arguments are not valid JSON']);
      expect(records.find).not.toHaveBeenCalled();
    });

    it.each([[[1, 2]], [42], [null], [true]])('refuses %j, which is not an object, with Type', async (args) => {
      const { gateway, records, find, scope } = setup();
      const error = await refusal(gateway.call(find, args, scope()));
      expect([error.definition, error.details]).toEqual([ValidationErrors.Type, 'arguments must be a JSON object']);
      expect(records.find).not.toHaveBeenCalled();
    });

    it('refuses what the endpoint’s body check found (argumentProblems) with the limit error', async () => {
      const { gateway, records, find, scope } = setup();
      const problems = [{ kind: 'depth' as const, path: ['filter', 'a', 'b'] }];
      const error = await refusal(gateway.call(find, { query: 'q' }, scope({ argumentProblems: problems })));
      expect(error.definition).toBe(ValidationErrors.LimitExceeded);
      expect(error.details).toEqual(new LocalizedDetails('validation.depth', { field: 'filter', limit: 64 }));
      expect(records.find).not.toHaveBeenCalled();
    });

    it('inspects arguments from elsewhere against MAX_JSON_DEPTH and unpaired surrogates', async () => {
      const { gateway, records, find, scope } = setup({ MAX_JSON_DEPTH: '4' });
      const deep = await refusal(gateway.call(find, { query: 'q', filter: { a: { b: { c: {} } } } }, scope()));
      expect([deep.definition, deep.details]).toEqual([
        ValidationErrors.LimitExceeded,
        new LocalizedDetails('validation.depth', { field: 'filter', limit: 4 }),
      ]);
      const broken = await refusal(gateway.call(find, { query: 'q\ud800' }, scope()));
      expect([broken.definition, broken.details]).toEqual([
        ValidationErrors.InvalidUnicode,
        new LocalizedDetails('validation.unicode', { field: 'query' }),
      ]);
      expect(records.find).not.toHaveBeenCalled();
    });

    it('trusts the endpoint’s body check when it found nothing', async () => {
      const { gateway, records, find, scope } = setup({ MAX_JSON_DEPTH: '4' });
      const deep = { query: 'q', filter: { a: { b: { c: {} } } } };
      await expect(gateway.call(find, deep, scope({ argumentProblems: [] }))).resolves.toMatchObject({ value: FOUND });
      expect(records.find).toHaveBeenCalledTimes(1);
    });

    it('reads arguments with the capability’s own hook instead: text and nulls reach it as they are', async () => {
      const { gateway, scope } = setup();
      const run = jest.fn<Promise<unknown>, [Record<string, unknown>]>().mockResolvedValue({ content: [] });
      const tool = operatorTool(run);
      await gateway.call(tool, 'plain text', scope());
      await gateway.call(tool, { namespace: null }, scope());
      expect(run.mock.calls).toEqual([[{ raw: 'plain text' }], [{ raw: { namespace: null } }]]);
    });
  });

  describe('response_format', () => {
    it('refuses anything but json or toon for a capability that renders TOON, running nothing', async () => {
      const { gateway, records, find, scope } = setup();
      const error = await refusal(gateway.call(find, { query: 'q', response_format: 'xml' }, scope()));
      expect(error.definition).toBe(ValidationErrors.InvalidResponseFormat);
      expect(error.details).toBe('invalid response_format: "xml" (allowed: json, toon)');
      expect(records.find).not.toHaveBeenCalled();
    });

    it('passes json or toon on to the capability', async () => {
      const { gateway, records, find, scope } = setup();
      await gateway.call(find, { query: 'q', response_format: 'json' }, scope());
      await gateway.call(find, { query: 'q', response_format: 'toon' }, scope());
      expect(records.find.mock.calls.map(([, input]) => input)).toEqual([
        { query: 'q', limit: 5, response_format: 'json' },
        { query: 'q', limit: 5, response_format: 'toon' },
      ]);
    });

    it('ignores it, whatever it holds, for a capability that always answers JSON', async () => {
      const { gateway, records, exporting, scope } = setup();
      await expect(gateway.call(exporting, { response_format: 'xml' }, scope())).resolves.toEqual({
        value: { exported: {} },
        knId: '',
      });
      expect(records.export).toHaveBeenCalledWith({});
    });
  });

  describe('confirmOnly', () => {
    it('runs nothing and audits the call as confirm, not run', async () => {
      const { gateway, records, find, scope, counted } = setup();
      await expect(gateway.call(find, { query: 'q' }, scope({ door: 'chat', confirmOnly: true }))).resolves.toEqual({
        value: undefined,
        knId: 'clinic',
      });
      expect(records.find).not.toHaveBeenCalled();
      expect(await counted()).toEqual([
        { door: 'chat', capability: 'find_records', decision: 'confirm', outcome: 'not_run', value: 1 },
      ]);
    });

    it('is still refused, and audited as denied, when the policy denies the capability', async () => {
      const { gateway, secret, scope, counted } = setup();
      const error = await refusal(gateway.call(secret, {}, scope({ confirmOnly: true })));
      expect(error.definition).toBe(GovernanceErrors.ToolDenied);
      expect(await counted()).toEqual([
        { door: 'mcp', capability: 'lookup_secret', decision: 'denied', outcome: 'not_run', value: 1 },
      ]);
    });

    it('still refuses a network the caller may not see', async () => {
      const { gateway, find, scope } = setup();
      const error = await refusal(gateway.call(find, { query: 'q', kn_id: 'k8s_ops' }, scope({ confirmOnly: true })));
      expect(error.definition).toBe(KnErrors.NetworkNotFound);
    });
  });

  describe('memo', () => {
    it('reuses the answer of a read-only capability for the same call, auditing both', async () => {
      const { gateway, records, find, scope, counted } = setup();
      const memo = new MapMemo();
      const first = await gateway.call(find, { query: 'q' }, scope({ memo }));
      const second = await gateway.call(find, { query: ' q', limit: 5 }, scope({ memo }));
      expect(records.find).toHaveBeenCalledTimes(1);
      expect(second).toEqual(first);
      expect(await counted()).toEqual([
        { door: 'mcp', capability: 'find_records', decision: 'allowed', outcome: 'ok', value: 2 },
      ]);
    });

    it('keys the answer by capability, network and parsed input', async () => {
      const { gateway, records, find, scope } = setup();
      const memo = new MapMemo();
      const asUser = scope({ principal: USER, memo });
      await gateway.call(find, { query: 'q' }, asUser);
      await gateway.call(find, { query: 'q', kn_id: 'k8s_ops' }, asUser);
      await gateway.call(find, { query: 'other' }, asUser);
      await gateway.call(find, { query: 'q', limit: 6 }, asUser);
      expect(records.find).toHaveBeenCalledTimes(4);
    });

    it('never reuses the answer of a capability that writes or of an operator tool', async () => {
      const { gateway, records, change, scope } = setup();
      const memo = new MapMemo();
      const asUser = scope({ principal: USER, memo });
      await gateway.call(change, { id: 'r1' }, asUser);
      await gateway.call(change, { id: 'r1' }, asUser);
      expect(records.change).toHaveBeenCalledTimes(2);
      const run = jest.fn<Promise<unknown>, [Record<string, unknown>]>().mockResolvedValue({ content: [] });
      const tool = operatorTool(run);
      await gateway.call(tool, {}, asUser);
      await gateway.call(tool, {}, asUser);
      expect(run).toHaveBeenCalledTimes(2);
      expect(memo.entries.size).toBe(0);
    });

    it('never reuses a workspace read: the session rewrites its own files', async () => {
      const { gateway, records, scope } = setup();
      const read = bindCapability(
        { ...(FIND_RECORDS as CapabilityDefinition), name: 'read_note', governance: 'workspace' },
        records,
      );
      const memo = new MapMemo();
      await gateway.call(read, { query: 'q' }, scope({ memo }));
      await gateway.call(read, { query: 'q' }, scope({ memo }));
      expect(records.find).toHaveBeenCalledTimes(2);
      expect(memo.entries.size).toBe(0);
    });

    it('does not keep an answer whose tool reported a failure', async () => {
      const { gateway, records, find, scope } = setup();
      records.find.mockResolvedValueOnce({ isError: true, content: [] });
      const memo = new MapMemo();
      await gateway.call(find, { query: 'q' }, scope({ memo }));
      await gateway.call(find, { query: 'q' }, scope({ memo }));
      expect(records.find).toHaveBeenCalledTimes(2);
    });

    it('is consulted only after the policy: a kept answer is not served to a caller the policy denies', async () => {
      const { gateway, records, secret, scope, counted } = setup();
      const memo = new MapMemo();
      await gateway.call(secret, {}, scope({ principal: USER, memo }));
      expect(memo.entries.size).toBe(1);
      const error = await refusal(gateway.call(secret, {}, scope({ principal: AGENT, memo })));
      expect(error.definition).toBe(GovernanceErrors.ToolDenied);
      expect(records.secret).toHaveBeenCalledTimes(1);
      expect(await counted()).toEqual([
        { door: 'mcp', capability: 'lookup_secret', decision: 'allowed', outcome: 'ok', value: 1 },
        { door: 'mcp', capability: 'lookup_secret', decision: 'denied', outcome: 'not_run', value: 1 },
      ]);
    });

    it('is consulted only after the network check', async () => {
      const { gateway, find, scope } = setup();
      const memo = new MapMemo();
      await gateway.call(find, { query: 'q', kn_id: 'k8s_ops' }, scope({ principal: USER, memo }));
      const error = await refusal(gateway.call(find, { query: 'q', kn_id: 'k8s_ops' }, scope({ memo })));
      expect(error.definition).toBe(KnErrors.NetworkNotFound);
    });
  });

  describe('outcomes', () => {
    it.each([
      ['isError', { isError: true, content: [] }],
      ['outcome tool_error', { outcome: 'tool_error' }],
    ])('returns a result whose tool reported a failure (%s) and audits it as tool_error', async (_case, value) => {
      const { gateway, records, find, scope, counted } = setup();
      records.find.mockResolvedValueOnce(value);
      await expect(gateway.call(find, { query: 'q' }, scope())).resolves.toEqual({ value, knId: 'clinic' });
      expect(await counted()).toEqual([
        { door: 'mcp', capability: 'find_records', decision: 'allowed', outcome: 'tool_error', value: 1 },
      ]);
    });

    it('rethrows what the capability throws: a 5xx AppException as failed with its code, anything else as failed', async () => {
      const { gateway, records, find, scope, counted } = setup();
      const upstream = new AppException(PublicErrors.InternalServerError, 'upstream down');
      records.find.mockRejectedValueOnce(upstream).mockRejectedValueOnce(new TypeError('x is undefined'));
      await expect(gateway.call(find, { query: 'q' }, scope())).rejects.toBe(upstream);
      await expect(gateway.call(find, { query: 'q' }, scope())).rejects.toThrow(TypeError);
      expect(await counted()).toEqual([
        { door: 'mcp', capability: 'find_records', decision: 'allowed', outcome: 'failed', value: 2 },
      ]);
      expect(auditLines().map((line) => line.error_code)).toEqual([PublicErrors.InternalServerError.code, undefined]);
    });
  });

  it('writes argument names and sizes to the audit line, never their values', async () => {
    const { gateway, find, scope } = setup();
    const args = {
      query: 'patient 张三 has diabetes',
      kn_id: 'clinic',
      token: 'sk-live-123',
      filter: { ssn: '123-45-6789' },
    };
    await gateway.call(find, args, scope());
    const lines = auditLines();
    expect(lines).toHaveLength(1);
    expect(lines[0].arguments).toEqual({
      query: Buffer.byteLength(args.query),
      kn_id: 6,
      token: 11,
      filter: JSON.stringify(args.filter).length,
    });
    expect(JSON.stringify(lines[0])).not.toMatch(/张三|diabetes|sk-live-123|123-45-6789/);
  });
});
