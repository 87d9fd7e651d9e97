import { Logger } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { AppException } from '../common/errors/app.exception';
import { UpstreamErrors, ValidationErrors } from '../common/errors/error-codes';
import { MetricsService } from '../metrics/metrics.service';
import { argumentSizes, AuditEntry, AuditLog } from './audit-log';
import { testConfig } from '../../test/support/unit/config';

describe('argumentSizes', () => {
  it('sizes a string in UTF-8 bytes, not characters', () => {
    expect(argumentSizes({ q: 'Lyon', zh: '糖尿病', emoji: '😀', empty: '' })).toEqual({
      q: 4,
      zh: 9,
      emoji: 4,
      empty: 0,
    });
  });

  it('sizes every other value as its JSON text', () => {
    expect(
      argumentSizes({ filter: { a: 1 }, ids: [1, 2], limit: 42, flag: true, none: null, zh: { 名: '值' } }),
    ).toEqual({ filter: 7, ids: 5, limit: 2, flag: 4, none: 4, zh: Buffer.byteLength('{"名":"值"}') });
  });

  it('sizes an undefined value as 0 and a value JSON cannot write as -1', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(argumentSizes({ gone: undefined, big: 10n, cyclic })).toEqual({ gone: 0, big: -1, cyclic: -1 });
  });

  it('names at most 64 arguments, the first ones, each name cut to 64 characters', () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`arg_${index}`, 'x']));
    const sizes = argumentSizes(many)!;
    expect(Object.keys(sizes)).toEqual(Array.from({ length: 64 }, (_, index) => `arg_${index}`));
    expect(argumentSizes({ ['n'.repeat(100)]: 'value' })).toEqual({ ['n'.repeat(64)]: 5 });
  });

  it.each([['text'], [[1, 2]], [null], [undefined], [42]])('gives nothing for %j, which is not an object', (args) => {
    expect(argumentSizes(args)).toBeUndefined();
  });

  it('never carries a value', () => {
    const sizes = argumentSizes({ content: 'patient 张三 has diabetes', token: 'sk-live-123' });
    expect(JSON.stringify(sizes)).not.toMatch(/张三|diabetes|sk-live/);
  });
});

describe('AuditLog', () => {
  const ENTRY: AuditEntry = {
    principal: { id: 'alice', type: 'agent', keyId: 'key_7' },
    door: 'mcp',
    capability: 'kn_search',
    knId: 'clinic',
    decision: 'allowed',
    outcome: 'ok',
    seconds: 0.01234,
    requestId: 'req-1',
    arguments: { query: '糖尿病', kn_id: 'clinic' },
  };

  let metrics: MetricsService;
  let audit: AuditLog;
  let log: jest.SpyInstance;
  let warn: jest.SpyInstance;

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    metrics = new MetricsService(testConfig().metrics);
    audit = new AuditLog(metrics);
    log = jest.spyOn(Logger.prototype, 'log');
    warn = jest.spyOn(Logger.prototype, 'warn');
  });

  afterEach(() => jest.restoreAllMocks());

  const counted = async () => {
    const counter = metrics.registry.getSingleMetric('agent_retrieval_capability_calls_total') as Counter<string>;
    return (await counter.get()).values.map(({ labels, value }) => ({ ...labels, value }));
  };

  it('writes one line: who, where, what, the decision and outcome, the duration, ids and argument sizes', () => {
    audit.record(ENTRY);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.contexts[0]).toMatchObject({ context: 'Audit' });
    expect(log.mock.calls[0]).toEqual([
      {
        account_id: 'alice',
        account_type: 'agent',
        key_id: 'key_7',
        door: 'mcp',
        capability: 'kn_search',
        kn_id: 'clinic',
        decision: 'allowed',
        outcome: 'ok',
        error_code: undefined,
        duration_ms: 12.3,
        request_id: 'req-1',
        trace_id: undefined,
        arguments: { query: 9, kn_id: 6 },
      },
      'capability call',
    ]);
  });

  it('leaves out an empty account id and kn_id', () => {
    audit.record({ ...ENTRY, principal: { id: '', type: 'anonymous' }, knId: '' });
    const [line] = log.mock.calls[0] as [Record<string, unknown>];
    expect(line).toMatchObject({ account_id: undefined, account_type: 'anonymous', kn_id: undefined });
  });

  it('writes a failed call as a warning with its error code', () => {
    audit.record({ ...ENTRY, outcome: 'failed', errorCode: 'agentRetrieval.BadGateway.UpstreamUnreachable' });
    expect(log).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatchObject({
      outcome: 'failed',
      error_code: 'agentRetrieval.BadGateway.UpstreamUnreachable',
    });
  });

  describe('around (a call that is not a capability)', () => {
    const { decision: _decision, outcome: _outcome, seconds: _seconds, ...call } = ENTRY;
    const around = { ...call, door: 'rest' as const, capability: 'api_keys.create' };

    it('returns what the call returns and audits it as allowed and ok', async () => {
      await expect(audit.around(around, async () => 'created')).resolves.toBe('created');
      expect(await counted()).toEqual([
        { door: 'rest', capability: 'api_keys.create', decision: 'allowed', outcome: 'ok', value: 1 },
      ]);
      expect(log.mock.calls[0][0]).toMatchObject({ decision: 'allowed', outcome: 'ok', error_code: undefined });
    });

    it('rethrows a 4xx as rejected with its code, a 5xx or anything else as failed', async () => {
      const refused = new AppException(ValidationErrors.Required, 'account_id is required');
      await expect(audit.around(around, () => Promise.reject(refused))).rejects.toBe(refused);
      const down = new AppException(UpstreamErrors.Unreachable, 'redis down');
      await expect(audit.around(around, () => Promise.reject(down))).rejects.toBe(down);
      await expect(audit.around(around, () => Promise.reject(new Error('bug')))).rejects.toThrow('bug');
      expect(await counted()).toEqual([
        { door: 'rest', capability: 'api_keys.create', decision: 'allowed', outcome: 'rejected', value: 1 },
        { door: 'rest', capability: 'api_keys.create', decision: 'allowed', outcome: 'failed', value: 2 },
      ]);
      expect(log.mock.calls[0][0]).toMatchObject({ outcome: 'rejected', error_code: ValidationErrors.Required.code });
      expect(warn.mock.calls.map(([line]) => (line as { error_code?: string }).error_code)).toEqual([
        UpstreamErrors.Unreachable.code,
        undefined,
      ]);
    });
  });

  it('counts calls by door, capability, decision and outcome', async () => {
    audit.record(ENTRY);
    audit.record(ENTRY);
    audit.record({ ...ENTRY, door: 'chat', decision: 'denied', outcome: 'not_run' });
    expect(await counted()).toEqual([
      { door: 'mcp', capability: 'kn_search', decision: 'allowed', outcome: 'ok', value: 2 },
      { door: 'chat', capability: 'kn_search', decision: 'denied', outcome: 'not_run', value: 1 },
    ]);
  });
});
