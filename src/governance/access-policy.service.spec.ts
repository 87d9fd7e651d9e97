import { Logger } from '@nestjs/common';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AccessPolicy, PolicySubject } from './access-policy';
import { AccessPolicyService } from './access-policy.service';
import { testConfig } from '../../test/support/unit/config';
import { until } from '../../test/support/until';

const KN_SEARCH: PolicySubject = { name: 'kn_search', readOnly: true, operator: false };
const EXECUTE_ACTION: PolicySubject = { name: 'execute_action', readOnly: false, operator: false };

const AGENT_READS = JSON.stringify({ agent: { networks: ['clinic'], allow: ['@read_only'] } });
const AGENT_DENIED = JSON.stringify({ agent: { networks: ['clinic'], allow: ['@read_only'], deny: ['kn_search'] } });

const service = (env: Record<string, string>): AccessPolicyService =>
  new AccessPolicyService(testConfig(env).governance);

/** The message the constructor throws, failing the test when it does not throw. */
function constructionError(env: Record<string, string>): string {
  let caught: unknown;
  try {
    service(env);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(Error);
  return (caught as Error).message;
}

describe('AccessPolicyService', () => {
  let dir: string;
  let logged: { warn: jest.SpyInstance; error: jest.SpyInstance; log: jest.SpyInstance };

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'access-policy-'));
    logged = {
      warn: jest.spyOn(Logger.prototype, 'warn'),
      error: jest.spyOn(Logger.prototype, 'error'),
      log: jest.spyOn(Logger.prototype, 'log'),
    };
  });

  afterEach(() => {
    jest.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const policyFile = (text: string, name = 'policy.json'): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  const messages = (spy: jest.SpyInstance): string[] => spy.mock.calls.map(([message]) => String(message));

  describe('at construction', () => {
    it('uses the default policy when neither variable is set, and has nothing to reload', () => {
      const policies = service({});
      expect(policies.policy).toBe(AccessPolicy.DEFAULT);
      expect(policies.version).toBe(0);
      expect(policies.reload('SIGHUP')).toBe(false);
      expect(policies.policy).toBe(AccessPolicy.DEFAULT);
      expect(policies.version).toBe(0);
      expect(messages(logged.log)).toContain('SIGHUP: the policy is the default; nothing to reload');
    });

    it('treats a blank ACCESS_POLICY as unset', () => {
      expect(service({ ACCESS_POLICY: '   ' }).policy).toBe(AccessPolicy.DEFAULT);
    });

    it('reads inline ACCESS_POLICY, networks included; an inline policy has nothing to reload', () => {
      const policies = service({ ACCESS_POLICY: AGENT_READS });
      expect(policies.policy.decide('agent', KN_SEARCH)).toMatchObject({ allowed: true, mode: 'auto' });
      expect(policies.policy.decide('agent', EXECUTE_ACTION)).toMatchObject({ allowed: false });
      expect(policies.policy.seesNetwork('agent', 'k8s_ops')).toBe(false);
      expect(policies.policy.seesNetwork('user', 'k8s_ops')).toBe(true);
      expect(policies.reload('SIGHUP')).toBe(false);
      expect(messages(logged.log)).toContain('SIGHUP: the policy is inline; nothing to reload');
      expect(logged.warn).not.toHaveBeenCalled();
    });

    it('reads CHAT_TOOL_POLICY as the same shape without networks, with a deprecation warning', () => {
      const policies = service({ CHAT_TOOL_POLICY: '{"viewer": {"allow": ["@read_only"], "auto": []}}' });
      expect(policies.policy.decide('viewer', KN_SEARCH)).toMatchObject({ allowed: true, mode: 'confirm' });
      expect(policies.policy.decide('viewer', EXECUTE_ACTION)).toMatchObject({ allowed: false });
      expect(policies.policy.seesNetwork('viewer', 'clinic')).toBe(true);
      expect(messages(logged.warn)).toEqual([
        'CHAT_TOOL_POLICY is deprecated: it is read as ACCESS_POLICY without "networks"; move it to ACCESS_POLICY',
      ]);
      expect(constructionError({ CHAT_TOOL_POLICY: '{"viewer": {"networks": ["clinic"]}}' })).toBe(
        'CHAT_TOOL_POLICY.viewer has an unknown field "networks" (known: allow, deny, auto)',
      );
    });

    it('ignores CHAT_TOOL_POLICY, even an invalid one, when ACCESS_POLICY is set, and says so', () => {
      const policies = service({ ACCESS_POLICY: AGENT_READS, CHAT_TOOL_POLICY: '{"viewer": ' });
      expect(policies.policy.seesNetwork('agent', 'k8s_ops')).toBe(false);
      expect(messages(logged.warn)).toEqual(['CHAT_TOOL_POLICY is ignored because ACCESS_POLICY is set']);
    });

    it.each([
      ['inline text that is not JSON', '{"agent": ', 'ACCESS_POLICY is not valid JSON'],
      [
        'an inline array',
        '["agent"]',
        'ACCESS_POLICY must be a JSON object of account type → {networks, allow, deny, auto}',
      ],
      [
        'an unknown field',
        '{"agent": {"allows": ["*"]}}',
        'ACCESS_POLICY.agent has an unknown field "allows" (known: networks, allow, deny, auto)',
      ],
    ])('refuses to start with %s, naming the problem', (_case, text, message) => {
      expect(constructionError({ ACCESS_POLICY: text })).toBe(message);
    });

    it('names a policy file that does not exist or does not hold a policy', () => {
      const missing = path.join(dir, 'absent.json');
      expect(constructionError({ ACCESS_POLICY: missing })).toBe(`ACCESS_POLICY file ${missing} does not exist`);
      const notJson = policyFile('agent: {}');
      expect(constructionError({ ACCESS_POLICY: notJson })).toBe(`ACCESS_POLICY file ${notJson} is not valid JSON`);
      const badField = policyFile('{"agent": {"deny": "kn_search"}}', 'bad-field.json');
      expect(constructionError({ ACCESS_POLICY: badField })).toBe(
        `ACCESS_POLICY file ${badField}.agent.deny must be an array of patterns`,
      );
    });
  });

  describe('a policy file', () => {
    it('is read at start and re-read by reload(), which bumps the version', () => {
      const file = policyFile(AGENT_READS);
      const policies = service({ ACCESS_POLICY: ` ${file} ` });
      const first = policies.policy;
      expect(first.decide('agent', KN_SEARCH)).toMatchObject({ allowed: true });
      expect(policies.version).toBe(0);

      fs.writeFileSync(file, AGENT_DENIED);
      expect(policies.reload('SIGHUP')).toBe(true);
      expect(policies.version).toBe(1);
      expect(policies.policy).not.toBe(first);
      expect(policies.policy.decide('agent', KN_SEARCH)).toEqual({ allowed: false, rule: 'agent.deny "kn_search"' });
      expect(messages(logged.log)).toContain(`SIGHUP: access policy reloaded from ${file}`);
    });

    it.each([
      ['not JSON', (file: string) => fs.writeFileSync(file, '{"agent": '), ' is not valid JSON'],
      [
        'an unknown field',
        (file: string) => fs.writeFileSync(file, '{"agent": {"allows": []}}'),
        '.agent has an unknown field "allows" (known: networks, allow, deny, auto)',
      ],
      ['deleted', (file: string) => fs.rmSync(file), ' does not exist'],
    ])('keeps the policy and version in force when the file becomes %s, and logs why', (_case, spoil, problem) => {
      const file = policyFile(AGENT_READS);
      const policies = service({ ACCESS_POLICY: file });
      const first = policies.policy;
      spoil(file);
      expect(policies.reload('file change')).toBe(false);
      expect(policies.policy).toBe(first);
      expect(policies.version).toBe(0);
      expect(messages(logged.error)).toEqual([
        `file change: access policy not reloaded, the previous one stays in force: ACCESS_POLICY file ${file}${problem}`,
      ]);
    });

    it('is picked up again once a bad version is fixed', () => {
      const file = policyFile(AGENT_READS);
      const policies = service({ ACCESS_POLICY: file });
      fs.writeFileSync(file, 'broken');
      expect(policies.reload('SIGHUP')).toBe(false);
      fs.writeFileSync(file, AGENT_DENIED);
      expect(policies.reload('SIGHUP')).toBe(true);
      expect(policies.version).toBe(1);
      expect(policies.policy.decide('agent', KN_SEARCH)).toMatchObject({ allowed: false });
    });
  });

  describe('lifecycle', () => {
    it('adds exactly one SIGHUP listener, which reloads, and removes it again', () => {
      const file = policyFile(AGENT_READS);
      const policies = service({ ACCESS_POLICY: file });
      const before = process.listeners('SIGHUP');
      policies.onModuleInit();
      try {
        const added = process.listeners('SIGHUP').filter((listener) => !before.includes(listener));
        expect(added).toHaveLength(1);
        expect(process.listenerCount('SIGHUP')).toBe(before.length + 1);
        fs.writeFileSync(file, AGENT_DENIED);
        added[0]('SIGHUP');
        expect(policies.version).toBe(1);
        expect(policies.policy.decide('agent', KN_SEARCH)).toMatchObject({ allowed: false });
      } finally {
        policies.onModuleDestroy();
      }
      expect(process.listenerCount('SIGHUP')).toBe(before.length);
    });

    it('adds and removes the SIGHUP listener with the default policy too', () => {
      const policies = service({});
      const before = process.listenerCount('SIGHUP');
      policies.onModuleInit();
      expect(process.listenerCount('SIGHUP')).toBe(before + 1);
      policies.onModuleDestroy();
      expect(process.listenerCount('SIGHUP')).toBe(before);
    });

    it('puts a changed policy file in force without a signal', async () => {
      const file = policyFile(AGENT_READS);
      const policies = service({ ACCESS_POLICY: file });
      policies.onModuleInit();
      try {
        // The watcher takes its first look at the file asynchronously: a change made before that look
        // is its starting point, so the file keeps changing (a different size each time) until it is seen.
        let padding = 0;
        await until(
          'the watcher puts the changed file in force',
          () => {
            if (policies.version > 0) return true;
            fs.writeFileSync(file, AGENT_DENIED + ' '.repeat((padding += 1)));
            return false;
          },
          5000,
        );
        expect(policies.policy.decide('agent', KN_SEARCH)).toEqual({ allowed: false, rule: 'agent.deny "kn_search"' });
        expect(messages(logged.log)).toContain(`file change: access policy reloaded from ${file}`);
      } finally {
        policies.onModuleDestroy();
      }
    }, 10_000);
  });
});
