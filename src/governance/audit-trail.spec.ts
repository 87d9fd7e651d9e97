import { Logger } from '@nestjs/common';
import { MetricsService } from '../metrics/metrics.service';
import { testConfig } from '../../test/support/unit/config';
import { AuditEntry, AuditLog } from './audit-log';
import { AUDIT_TRAIL_SIZE, AuditTrail, AuditTrailLine } from './audit-trail';

const line = (account: string, index: number): AuditTrailLine => ({
  time: new Date(index * 1000).toISOString(),
  account_id: account,
  account_type: 'user',
  door: 'rest',
  capability: `call_${index}`,
  decision: 'allowed',
  outcome: 'ok',
  duration_ms: 1,
});

describe('AuditTrail', () => {
  it('answers the newest lines first, at most the limit, of one account or of all', () => {
    const trail = new AuditTrail();
    for (let index = 0; index < 6; index++) trail.add(line(index % 2 === 0 ? 'alice' : 'bob', index));
    expect(trail.recent(10, 'alice').map((entry) => entry.capability)).toEqual(['call_4', 'call_2', 'call_0']);
    expect(trail.recent(2).map((entry) => entry.capability)).toEqual(['call_5', 'call_4']);
    expect(trail.recent(10, 'carol')).toEqual([]);
  });

  it(`keeps only the last ${AUDIT_TRAIL_SIZE} lines, overwriting the oldest`, () => {
    const trail = new AuditTrail();
    for (let index = 0; index < AUDIT_TRAIL_SIZE + 5; index++) trail.add(line('alice', index));
    const kept = trail.recent(AUDIT_TRAIL_SIZE + 5);
    expect(kept).toHaveLength(AUDIT_TRAIL_SIZE);
    expect(kept[0].capability).toBe(`call_${AUDIT_TRAIL_SIZE + 4}`);
    expect(kept[kept.length - 1].capability).toBe('call_5');
  });

  it('shows an account type named in AUDIT_ADMIN_ACCOUNT_TYPES every line, anyone else only its own', () => {
    const governance = testConfig({ AUDIT_ADMIN_ACCOUNT_TYPES: 'ops, auditor' }).governance;
    const trail = new AuditTrail(governance);
    trail.add(line('alice', 1));
    trail.add(line('bob', 2));
    expect(trail.forCaller({ id: 'root', type: 'auditor' }, 10)).toMatchObject({ scope: 'all', lines: [{}, {}] });
    expect(trail.forCaller({ id: 'alice', type: 'user' }, 10)).toEqual({ scope: 'own', lines: [line('alice', 1)] });
    expect(trail.forCaller({ id: 'bob', type: 'ops-not' }, 10).scope).toBe('own');
  });

  it('is fed by the audit log with the line, never an argument value', () => {
    Logger.overrideLogger(false);
    const trail = new AuditTrail();
    const audit = new AuditLog(new MetricsService(testConfig().metrics), undefined, trail);
    const entry: AuditEntry = {
      principal: { id: 'alice', type: 'agent', keyId: 'key_7' },
      door: 'mcp',
      capability: 'kn_search',
      knId: 'clinic',
      decision: 'allowed',
      outcome: 'ok',
      seconds: 0.0123,
      requestId: 'req-1',
      arguments: { query: 'secret question' },
    };
    audit.record(entry);
    const [recorded] = trail.recent(1);
    expect(recorded).toMatchObject({
      account_id: 'alice',
      account_type: 'agent',
      key_id: 'key_7',
      door: 'mcp',
      capability: 'kn_search',
      kn_id: 'clinic',
      decision: 'allowed',
      outcome: 'ok',
      duration_ms: 12.3,
      request_id: 'req-1',
    });
    expect(JSON.stringify(recorded)).not.toContain('secret');
  });
});

describe('AuditTrail text', () => {
  it('repeats a network, capability or id only when it looks like an identifier', () => {
    const trail = new AuditTrail();
    trail.add({
      ...line('alice', 1),
      capability: '../../etc/passwd__x',
      kn_id: "x' UNION SELECT name, type FROM master --",
      request_id: 'a*b*',
    });
    trail.add({ ...line('alice', 2), kn_id: '智慧诊所', request_id: '41038dfb-2076-43f8-b0d8-5ed099a09960' });
    const [clean, hostile] = trail.recent(2, 'alice');
    expect(hostile).toMatchObject({
      capability: '(not an identifier)',
      kn_id: '(not an identifier)',
      request_id: '(not an identifier)',
    });
    expect(clean).toMatchObject({ kn_id: '智慧诊所', request_id: '41038dfb-2076-43f8-b0d8-5ed099a09960' });
  });
});
