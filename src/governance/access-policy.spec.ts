import { AccessPolicy, DEFAULT_RULE, ParseOptions, PolicyError, PolicySubject } from './access-policy';

const SOURCE: ParseOptions = { source: 'ACCESS_POLICY' };

/** This service's own capability that only reads. */
const read = (name: string): PolicySubject => ({ name, readOnly: true, operator: false });
/** This service's own capability that changes something. */
const writes = (name: string): PolicySubject => ({ name, readOnly: false, operator: false });
/** An operator tool; its server's read-only hint is its own claim. */
const operator = (name: string, readOnly = false): PolicySubject => ({ name, readOnly, operator: true });

const KN_SEARCH = read('kn_search');
const EXECUTE_ACTION = writes('execute_action');
const RESTART = operator('k8s_tools__restart_deployment');

const parse = (policy: unknown, options: ParseOptions = SOURCE): AccessPolicy =>
  AccessPolicy.parse(JSON.stringify(policy), options);

/** The message a parse throws, failing the test when the text parses. */
function parseError(text: string, options: ParseOptions = SOURCE): string {
  let caught: unknown;
  try {
    AccessPolicy.parse(text, options);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(PolicyError);
  return (caught as PolicyError).message;
}

/** The mode a decision gives, or `denied`: the old tool policy's view, for the ported cases. */
function mode(policy: AccessPolicy, accountType: string, subject: PolicySubject): string {
  const decision = policy.decide(accountType, subject);
  return decision.allowed ? decision.mode : 'denied';
}

describe('AccessPolicy', () => {
  describe('parsing', () => {
    it('names the source when the text is not JSON', () => {
      expect(parseError('{"agent": ')).toBe('ACCESS_POLICY is not valid JSON');
      expect(parseError('agent: {}', { source: 'ACCESS_POLICY file /etc/policy.json' })).toBe(
        'ACCESS_POLICY file /etc/policy.json is not valid JSON',
      );
    });

    it.each(['[]', 'null', '"agent"', '3', 'true'])('refuses %s instead of an object of account types', (text) => {
      expect(parseError(text)).toBe(
        'ACCESS_POLICY must be a JSON object of account type → {networks, allow, deny, auto}',
      );
    });

    it.each(['[]', 'null', '"@read_only"', '1'])('refuses the rule %s of an account type', (rule) => {
      expect(parseError(`{"agent": ${rule}}`)).toBe(
        'ACCESS_POLICY.agent must be an object {networks, allow, deny, auto}',
      );
    });

    it('names an unknown field, cut to 64 characters, and the known ones', () => {
      expect(parseError('{"agent": {"allows": ["*"]}}')).toBe(
        'ACCESS_POLICY.agent has an unknown field "allows" (known: networks, allow, deny, auto)',
      );
      const long = 'x'.repeat(100);
      expect(parseError(`{"agent": {"${long}": []}}`)).toBe(
        `ACCESS_POLICY.agent has an unknown field "${'x'.repeat(64)}" (known: networks, allow, deny, auto)`,
      );
    });

    it.each([
      ['networks', '"clinic"'],
      ['allow', '"kn_search"'],
      ['deny', 'null'],
      ['auto', '{"0": "kn_search"}'],
    ])('names the account type and field when %s is not an array', (field, value) => {
      expect(parseError(`{"agent": {"${field}": ${value}}}`)).toBe(
        `ACCESS_POLICY.agent.${field} must be an array of patterns`,
      );
    });

    it.each([
      ['an empty pattern', '["kn_search", ""]', 'ACCESS_POLICY.agent.allow[1] must be a non-empty string'],
      ['a number', '[1]', 'ACCESS_POLICY.agent.allow[0] must be a non-empty string'],
      ['null', '[null]', 'ACCESS_POLICY.agent.allow[0] must be a non-empty string'],
      [
        'a pattern over 256 characters',
        `["${'a'.repeat(257)}"]`,
        'ACCESS_POLICY.agent.allow[0] is longer than 256 characters',
      ],
      ['a newline', '["kn_\\nsearch"]', 'ACCESS_POLICY.agent.allow[0] contains a control character'],
      ['a NUL', '["kn_\\u0000"]', 'ACCESS_POLICY.agent.allow[0] contains a control character'],
      ['DEL', '["\\u007f"]', 'ACCESS_POLICY.agent.allow[0] contains a control character'],
      [
        'an unknown group',
        '["@writers"]',
        'ACCESS_POLICY.agent.allow[0] names an unknown group "@writers" (known: @read_only)',
      ],
    ])('names the exact pattern for %s', (_case, patterns, message) => {
      expect(parseError(`{"agent": {"allow": ${patterns}}}`)).toBe(message);
    });

    it('accepts a pattern of exactly 256 characters', () => {
      const pattern = 'a'.repeat(256);
      expect(parse({ agent: { allow: [pattern] } }).decide('agent', read(pattern))).toMatchObject({ allowed: true });
    });

    it('accepts @read_only in allow, deny and auto but refuses any group among networks', () => {
      expect(() =>
        parse({ agent: { allow: ['@read_only'], deny: ['@read_only'], auto: ['@read_only'] } }),
      ).not.toThrow();
      expect(parseError('{"agent": {"networks": ["@read_only"]}}')).toMatch(
        /^ACCESS_POLICY\.agent\.networks\[0\] is a capability group; networks takes kn_id patterns only$/,
      );
    });

    it('refuses networks in the CHAT_TOOL_POLICY shape and names the fields it knows', () => {
      const chat: ParseOptions = { source: 'CHAT_TOOL_POLICY', withoutNetworks: true };
      expect(parseError('{"viewer": {"networks": ["*"]}}', chat)).toBe(
        'CHAT_TOOL_POLICY.viewer has an unknown field "networks" (known: allow, deny, auto)',
      );
      const policy = parse({ viewer: { allow: ['@read_only'] } }, chat);
      expect(policy.ruleFor('viewer').rule.networks).toEqual(DEFAULT_RULE.networks);
      expect(policy.seesNetwork('viewer', 'clinic')).toBe(true);
    });

    it('takes at most 1000 account types and 1000 patterns per field', () => {
      const types = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`type_${i}`, {}]));
      expect(parse(types(1000)).accountTypes()).toHaveLength(1001);
      expect(parseError(JSON.stringify(types(1001)))).toBe('ACCESS_POLICY names more than 1000 account types');
      const patterns = (count: number) => Array.from({ length: count }, (_, i) => `tool_${i}`);
      expect(() => parse({ agent: { deny: patterns(1000) } })).not.toThrow();
      expect(parseError(JSON.stringify({ agent: { deny: patterns(1001) } }))).toBe(
        'ACCESS_POLICY.agent.deny holds more than 1000 patterns',
      );
    });

    it('is a PolicyError, an Error named PolicyError', () => {
      const error = new PolicyError('x');
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe('PolicyError');
    });
  });

  describe('defaults', () => {
    it('fills every missing field of a rule from the default rule', () => {
      const policy = parse({ agent: {}, auditor: { deny: ['write_file'] } });
      expect(policy.ruleFor('agent')).toEqual({ key: 'agent', rule: { ...DEFAULT_RULE } });
      expect(policy.ruleFor('auditor').rule).toEqual({ ...DEFAULT_RULE, deny: ['write_file'] });
    });

    it('files an unknown account type under the default rule', () => {
      const policy = parse({ agent: { allow: ['kn_search'] } });
      expect(policy.accountTypes()).toEqual(['default', 'agent']);
      expect(policy.ruleFor('guest')).toEqual({ key: 'default', rule: DEFAULT_RULE });
      expect(policy.decide('guest', EXECUTE_ACTION)).toEqual({
        allowed: true,
        mode: 'confirm',
        rule: 'default.allow "*"',
      });
    });

    it('lets a policy redefine the default rule, its missing fields still from DEFAULT_RULE', () => {
      const policy = parse({ default: { networks: ['clinic'], auto: [] } });
      expect(policy.accountTypes()).toEqual(['default']);
      expect(policy.ruleFor('guest')).toEqual({
        key: 'default',
        rule: { networks: ['clinic'], allow: DEFAULT_RULE.allow, deny: DEFAULT_RULE.deny, auto: [] },
      });
      expect(mode(policy, 'guest', KN_SEARCH)).toBe('confirm');
      expect(mode(policy, 'guest', writes('write_file'))).toBe('confirm');
      expect(policy.seesNetwork('guest', 'clinic')).toBe(true);
      expect(policy.seesNetwork('guest', 'k8s_ops')).toBe(false);
    });

    it('fills a rule from DEFAULT_RULE, not from the policy’s own default entry', () => {
      const policy = parse({ default: { auto: [] }, agent: { deny: ['kn_*'] } });
      expect(policy.ruleFor('agent').rule.auto).toEqual(DEFAULT_RULE.auto);
    });
  });

  describe('the default policy', () => {
    const policy = AccessPolicy.DEFAULT;

    it('runs read-only capabilities and the workspace files unasked and confirms the rest', () => {
      expect(policy.decide('user', KN_SEARCH)).toEqual({ allowed: true, mode: 'auto', rule: 'default.allow "*"' });
      expect(mode(policy, 'user', EXECUTE_ACTION)).toBe('confirm');
      expect(mode(policy, 'user', read('read_file'))).toBe('auto');
      expect(mode(policy, 'user', read('list_files'))).toBe('auto');
      expect(mode(policy, 'user', writes('write_file'))).toBe('auto');
    });

    it('offers an operator tool only to confirm, named through *__*, whatever read-only hint it claims', () => {
      expect(policy.decide('user', RESTART)).toEqual({ allowed: true, mode: 'confirm', rule: 'default.allow "*__*"' });
      expect(mode(policy, 'user', operator('k8s_tools__get_pods', true))).toBe('confirm');
    });

    it('sees every network', () => {
      expect(policy.seesNetwork('anonymous', 'clinic')).toBe(true);
      expect(policy.seesNetwork('user', 'k8s_ops')).toBe(true);
    });
  });

  describe('decisions', () => {
    it('lets deny win over allow and names the deny pattern', () => {
      const policy = parse({ agent: { allow: ['*'], deny: ['execute_*'] } });
      expect(policy.decide('agent', EXECUTE_ACTION)).toEqual({ allowed: false, rule: 'agent.deny "execute_*"' });
      expect(mode(policy, 'agent', KN_SEARCH)).toBe('auto');
    });

    it('names the first deny pattern that matches', () => {
      const policy = parse({ agent: { deny: ['other', '*', 'kn_search'] } });
      expect(policy.decide('agent', KN_SEARCH)).toEqual({ allowed: false, rule: 'agent.deny "*"' });
    });

    it('says no allow pattern names a capability that is not allowed', () => {
      const policy = parse({ agent: { allow: ['kn_search'] } });
      expect(policy.decide('agent', EXECUTE_ACTION)).toEqual({
        allowed: false,
        rule: 'agent.allow (no pattern names it)',
      });
      expect(policy.decide('agent', KN_SEARCH)).toEqual({
        allowed: true,
        mode: 'auto',
        rule: 'agent.allow "kn_search"',
      });
    });

    it('names the allow pattern that matched first', () => {
      const policy = parse({ agent: { allow: ['query_*', 'kn_*', '*'], auto: [] } });
      expect(policy.decide('agent', KN_SEARCH)).toEqual({ allowed: true, mode: 'confirm', rule: 'agent.allow "kn_*"' });
    });

    it('matches * against any run of characters, empty included, and everything else literally', () => {
      const policy = parse({
        editor: { deny: ['delete_*', 'drop.table'], auto: ['@read_only', 'kn_*', 'get_*_by_id'] },
      });
      expect(mode(policy, 'editor', writes('delete_object'))).toBe('denied');
      expect(mode(policy, 'editor', read('delete_'))).toBe('denied');
      expect(mode(policy, 'editor', writes('undelete_object'))).toBe('confirm');
      expect(mode(policy, 'editor', writes('drop.table'))).toBe('denied');
      expect(mode(policy, 'editor', writes('dropXtable'))).toBe('confirm');
      expect(mode(policy, 'editor', writes('kn_update'))).toBe('auto');
      expect(mode(policy, 'editor', writes('kn_update_all'))).toBe('auto');
      expect(mode(policy, 'editor', writes('my_kn_update'))).toBe('confirm');
      expect(mode(policy, 'editor', writes('get_order_by_id'))).toBe('auto');
    });

    it('treats regular expression characters in a pattern as plain text', () => {
      const policy = parse({ agent: { allow: ['a+b', '(x)|y', '[z]'] } });
      expect(mode(policy, 'agent', writes('a+b'))).toBe('confirm');
      expect(mode(policy, 'agent', writes('aab'))).toBe('denied');
      expect(mode(policy, 'agent', writes('(x)|y'))).toBe('confirm');
      expect(mode(policy, 'agent', writes('y'))).toBe('denied');
      expect(mode(policy, 'agent', writes('[z]'))).toBe('confirm');
      expect(mode(policy, 'agent', writes('z'))).toBe('denied');
    });

    it('refuses everything to a rule that denies *', () => {
      const policy = parse({ locked: { allow: ['*'], deny: ['*'] } });
      expect(mode(policy, 'locked', KN_SEARCH)).toBe('denied');
      expect(policy.decide('locked', RESTART)).toEqual({ allowed: false, rule: 'locked.allow (no pattern names it)' });
    });

    it('limits an account type to what it allows, replacing the default auto list when it gives its own', () => {
      const policy = parse({
        viewer: { allow: ['@read_only', 'list_files'], auto: ['*'] },
        editor: { auto: ['@read_only'] },
      });
      expect(mode(policy, 'viewer', read('search_objects'))).toBe('auto');
      expect(mode(policy, 'viewer', read('list_files'))).toBe('auto');
      expect(mode(policy, 'viewer', writes('write_file'))).toBe('denied');
      expect(mode(policy, 'viewer', writes('create_ticket'))).toBe('denied');
      expect(mode(policy, 'editor', writes('write_file'))).toBe('confirm');
    });

    describe('@read_only', () => {
      const policy = parse({ agent: { allow: ['@read_only'], auto: ['@read_only'] } });

      it('names every read-only capability of this service and nothing that writes', () => {
        expect(policy.decide('agent', KN_SEARCH)).toEqual({
          allowed: true,
          mode: 'auto',
          rule: 'agent.allow "@read_only"',
        });
        expect(policy.decide('agent', EXECUTE_ACTION)).toEqual({
          allowed: false,
          rule: 'agent.allow (no pattern names it)',
        });
      });

      it('never names an operator tool, even one that claims to be read-only', () => {
        expect(mode(policy, 'agent', operator('k8s_tools__get_pods', true))).toBe('denied');
        const denying = parse({ agent: { allow: ['*__*'], deny: ['@read_only'] } });
        expect(mode(denying, 'agent', operator('k8s_tools__get_pods', true))).toBe('confirm');
        expect(mode(denying, 'agent', KN_SEARCH)).toBe('denied');
      });
    });

    describe('operator tools', () => {
      it('are named only by a pattern that contains __', () => {
        for (const pattern of ['k8s_tools__*', '*__*', 'k8s_tools__restart_deployment', '*__restart_*']) {
          const policy = parse({ agent: { allow: [pattern] } });
          expect(policy.decide('agent', RESTART)).toEqual({
            allowed: true,
            mode: 'confirm',
            rule: `agent.allow "${pattern}"`,
          });
        }
      });

      it('are never named by *, @read_only or a pattern without __, in allow, deny or auto', () => {
        // It claims to be read-only, so only the operator rule keeps @read_only from naming it.
        const claiming = operator('k8s_tools__restart_deployment', true);
        for (const pattern of ['*', '@read_only', 'k8s_tools*', '*restart_deployment']) {
          expect(mode(parse({ agent: { allow: [pattern] } }), 'agent', claiming)).toBe('denied');
          expect(mode(parse({ agent: { allow: ['*__*'], deny: [pattern] } }), 'agent', claiming)).toBe('confirm');
          expect(mode(parse({ agent: { allow: ['*__*'], auto: [pattern] } }), 'agent', claiming)).toBe('confirm');
        }
      });

      it('run unasked only when auto names them with __', () => {
        const policy = parse({ agent: { allow: ['k8s_tools__*'], auto: ['k8s_tools__get_*'] } });
        expect(mode(policy, 'agent', operator('k8s_tools__get_pods'))).toBe('auto');
        expect(mode(policy, 'agent', RESTART)).toBe('confirm');
        expect(mode(policy, 'agent', operator('clinic_tools__get_patient'))).toBe('denied');
      });

      it('can be denied by server', () => {
        const policy = parse({ agent: { allow: ['*', '*__*'], deny: ['k8s_tools__*'] } });
        expect(policy.decide('agent', RESTART)).toEqual({ allowed: false, rule: 'agent.deny "k8s_tools__*"' });
        expect(mode(policy, 'agent', operator('clinic_tools__get_patient'))).toBe('confirm');
      });
    });

    it('decides auto vs confirm only among what is allowed', () => {
      const policy = parse({ agent: { allow: ['kn_search'], auto: ['*'] } });
      expect(mode(policy, 'agent', KN_SEARCH)).toBe('auto');
      expect(mode(policy, 'agent', read('query_object_instance'))).toBe('denied');
    });
  });

  describe('seesNetwork', () => {
    const policy = parse({ agent: { networks: ['clinic', 'demo_*'] }, blind: { networks: [] } });

    it('sees only the networks a pattern names', () => {
      expect(policy.seesNetwork('agent', 'clinic')).toBe(true);
      expect(policy.seesNetwork('agent', 'demo_1')).toBe(true);
      expect(policy.seesNetwork('agent', 'demo_')).toBe(true);
      expect(policy.seesNetwork('agent', 'clinic2')).toBe(false);
      expect(policy.seesNetwork('agent', 'my_clinic')).toBe(false);
      expect(policy.seesNetwork('agent', 'k8s_ops')).toBe(false);
    });

    it('sees nothing with an empty list, and every network under the default rule', () => {
      expect(policy.seesNetwork('blind', 'clinic')).toBe(false);
      expect(policy.seesNetwork('user', 'k8s_ops')).toBe(true);
    });

    it('reads a network pattern literally but for *', () => {
      const dotted = parse({ agent: { networks: ['kn.prod'] } });
      expect(dotted.seesNetwork('agent', 'kn.prod')).toBe(true);
      expect(dotted.seesNetwork('agent', 'knXprod')).toBe(false);
    });
  });
});

describe('AccessPolicy decisions made once', () => {
  it('answers the same decision for a rule and subject, whichever account type filed under the rule asks', () => {
    const policy = parse({ agent: { allow: ['@read_only'], auto: [] } });
    const first = policy.decide('agent', KN_SEARCH);
    expect(policy.decide('agent', KN_SEARCH)).toBe(first);
    // Account types the policy does not name share the default rule, and its decisions.
    expect(policy.decide('guest', KN_SEARCH)).toBe(policy.decide('someone-else', KN_SEARCH));
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('tells apart subjects of one name that differ in kind', () => {
    const policy = parse({ agent: { allow: ['@read_only'] } });
    expect(policy.decide('agent', read('lookup')).allowed).toBe(true);
    expect(policy.decide('agent', writes('lookup')).allowed).toBe(false);
    expect(policy.decide('agent', operator('lookup', true)).allowed).toBe(false);
  });
});
