/**
 * The access policy (SPEC §12, `ACCESS_POLICY`): per account type, which knowledge networks a caller
 * sees and which capabilities it may call, and which of those chat runs without asking. Pure: parsing,
 * validation and decisions; loading and reloading live in {@link AccessPolicyService}.
 */

/** One account type's rules. Patterns: `*` matches any run of characters; `@read_only` names a group. */
export interface PolicyRule {
  networks: readonly string[];
  allow: readonly string[];
  deny: readonly string[];
  auto: readonly string[];
}

/** What a decision needs to know about a capability; made once per capability and never changed (decisions are kept per subject). */
export interface PolicySubject {
  name: string;
  /** This service's own read-only capability (operator tools never count, whatever they claim). */
  readOnly: boolean;
  /** A tool of a configured operator (MCP server or toolbox), named `<server>__<tool>`. */
  operator: boolean;
}

export type PolicyDecision =
  { allowed: false; rule: string } | { allowed: true; mode: 'auto' | 'confirm'; rule: string };

export const READ_ONLY_GROUP = '@read_only';
export const DEFAULT_ACCOUNT_TYPE = 'default';
/** Separates an operator tool's server from its name; only a pattern that contains it can name operator tools. */
export const OPERATOR_SEPARATOR = '__';

const FIELDS = ['networks', 'allow', 'deny', 'auto'] as const;
type Field = (typeof FIELDS)[number];
const GROUPS = new Set([READ_ONLY_GROUP]);
const MAX_PATTERN_LENGTH = 256;
const MAX_PATTERNS = 1000;
const MAX_ACCOUNT_TYPES = 1000;
// Printable text only: a pattern is configuration, never a place for control characters.
// eslint-disable-next-line no-control-regex
const PATTERN_TEXT = /^[^\u0000-\u001f\u007f]+$/;

/**
 * Today's behaviour without the bypass: every network, every capability of this service, the operator
 * tools that no action binds (named through `*__*`), read-only tools and the session's workspace files
 * run without asking; anything else — execute_action first — is confirmed.
 */
export const DEFAULT_RULE: PolicyRule = Object.freeze({
  networks: ['*'],
  allow: ['*', `*${OPERATOR_SEPARATOR}*`],
  deny: [],
  auto: [READ_ONLY_GROUP, 'read_file', 'list_files', 'write_file'],
});

/** A policy that cannot be used; the message names the variable, the account type and the field. */
export class PolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyError';
  }
}

export interface ParseOptions {
  /** Variable (or file) the text came from, for messages. */
  source: string;
  /** `CHAT_TOOL_POLICY`'s shape: no `networks`. */
  withoutNetworks?: boolean;
}

export class AccessPolicy {
  private readonly patterns = new Map<string, RegExp>();
  private readonly decisions = new WeakMap<PolicySubject, Map<string, PolicyDecision>>();

  private constructor(private readonly rules: ReadonlyMap<string, PolicyRule>) {}

  static readonly DEFAULT = new AccessPolicy(new Map([[DEFAULT_ACCOUNT_TYPE, DEFAULT_RULE]]));

  /** Parses and validates JSON text; throws a PolicyError that names the first problem. */
  static parse(text: string, options: ParseOptions): AccessPolicy {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new PolicyError(`${options.source} is not valid JSON`);
    }
    if (!isObject(parsed)) {
      throw new PolicyError(`${options.source} must be a JSON object of account type → {networks, allow, deny, auto}`);
    }
    const entries = Object.entries(parsed);
    if (entries.length > MAX_ACCOUNT_TYPES) {
      throw new PolicyError(`${options.source} names more than ${MAX_ACCOUNT_TYPES} account types`);
    }
    const rules = new Map<string, PolicyRule>([[DEFAULT_ACCOUNT_TYPE, DEFAULT_RULE]]);
    for (const [accountType, value] of entries) {
      rules.set(accountType, parseRule(`${options.source}.${accountType.slice(0, 64)}`, value, options));
    }
    return new AccessPolicy(rules);
  }

  /** The account types the policy names (`default` included). */
  accountTypes(): string[] {
    return [...this.rules.keys()];
  }

  /** The rule that applies to an account type, and the key it is filed under. */
  ruleFor(accountType: string): { key: string; rule: PolicyRule } {
    const own = this.rules.get(accountType);
    return own
      ? { key: accountType, rule: own }
      : { key: DEFAULT_ACCOUNT_TYPE, rule: this.rules.get(DEFAULT_ACCOUNT_TYPE)! };
  }

  /** Whether the account type may see a network at all (one it may not see does not exist for it). */
  seesNetwork(accountType: string, knId: string): boolean {
    const { rule } = this.ruleFor(accountType);
    return rule.networks.some((pattern) => this.compiled(pattern).test(knId));
  }

  /** Deny wins over allow; an allowed capability runs unasked in chat when `auto` names it. */
  decide(accountType: string, subject: PolicySubject): PolicyDecision {
    const { key, rule } = this.ruleFor(accountType);
    // A policy never changes (a reload makes a new one), and a capability's subject is made once with it:
    // a decision is made once per subject and rule (at most one per account type the policy names).
    let byRule = this.decisions.get(subject);
    if (!byRule) this.decisions.set(subject, (byRule = new Map()));
    let decision = byRule.get(key);
    if (!decision) byRule.set(key, (decision = Object.freeze(this.decideAnew(key, rule, subject))));
    return decision;
  }

  private decideAnew(key: string, rule: PolicyRule, subject: PolicySubject): PolicyDecision {
    const denied = rule.deny.find((pattern) => this.names(pattern, subject));
    if (denied !== undefined) return { allowed: false, rule: `${key}.deny "${denied}"` };
    const allowed = rule.allow.find((pattern) => this.names(pattern, subject));
    if (allowed === undefined) return { allowed: false, rule: `${key}.allow (no pattern names it)` };
    const auto = rule.auto.some((pattern) => this.names(pattern, subject));
    return { allowed: true, mode: auto ? 'auto' : 'confirm', rule: `${key}.allow "${allowed}"` };
  }

  private names(pattern: string, subject: PolicySubject): boolean {
    if (pattern === READ_ONLY_GROUP) return subject.readOnly && !subject.operator;
    // An operator tool is only ever named on purpose: by a pattern that names its server part.
    if (subject.operator && !pattern.includes(OPERATOR_SEPARATOR)) return false;
    return this.compiled(pattern).test(subject.name);
  }

  private compiled(pattern: string): RegExp {
    let compiled = this.patterns.get(pattern);
    if (!compiled) {
      const body = pattern
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*');
      compiled = new RegExp(`^${body}$`, 's');
      this.patterns.set(pattern, compiled);
    }
    return compiled;
  }
}

function parseRule(path: string, value: unknown, options: ParseOptions): PolicyRule {
  if (!isObject(value)) throw new PolicyError(`${path} must be an object {networks, allow, deny, auto}`);
  const allowed: readonly Field[] = options.withoutNetworks ? FIELDS.filter((field) => field !== 'networks') : FIELDS;
  const unknown = Object.keys(value).find((key) => !(allowed as readonly string[]).includes(key));
  if (unknown !== undefined) {
    throw new PolicyError(`${path} has an unknown field "${unknown.slice(0, 64)}" (known: ${allowed.join(', ')})`);
  }
  const list = (field: Field): readonly string[] =>
    value[field] === undefined ? DEFAULT_RULE[field] : patternList(`${path}.${field}`, value[field], field);
  return { networks: list('networks'), allow: list('allow'), deny: list('deny'), auto: list('auto') };
}

function patternList(path: string, value: unknown, field: Field): string[] {
  if (!Array.isArray(value)) throw new PolicyError(`${path} must be an array of patterns`);
  if (value.length > MAX_PATTERNS) throw new PolicyError(`${path} holds more than ${MAX_PATTERNS} patterns`);
  return value.map((pattern: unknown, index) => {
    const at = `${path}[${index}]`;
    if (typeof pattern !== 'string' || pattern === '') throw new PolicyError(`${at} must be a non-empty string`);
    if (pattern.length > MAX_PATTERN_LENGTH)
      throw new PolicyError(`${at} is longer than ${MAX_PATTERN_LENGTH} characters`);
    if (!PATTERN_TEXT.test(pattern)) throw new PolicyError(`${at} contains a control character`);
    if (pattern.startsWith('@') && field === 'networks') {
      throw new PolicyError(`${at} is a capability group; networks takes kn_id patterns only`);
    }
    if (pattern.startsWith('@') && !GROUPS.has(pattern)) {
      throw new PolicyError(
        `${at} names an unknown group "${pattern.slice(0, 64)}" (known: ${[...GROUPS].join(', ')})`,
      );
    }
    return pattern;
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
