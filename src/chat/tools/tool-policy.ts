import { existsSync, readFileSync } from 'node:fs';
import { resolveFromRoot } from '../../project-root';

/** One account type's rules: which server tools it may use and which of those run without asking. */
export interface PolicyRule {
  /** Tool name patterns (`*` matches any run of characters); `@read_only` names every read-only tool. */
  allow: string[];
  deny: string[];
  auto: string[];
}

export type ToolMode = 'auto' | 'confirm' | 'unavailable';

const READ_ONLY = '@read_only';

/** Read-only tools and the session's own workspace files run automatically; anything else asks first. */
export const DEFAULT_RULE: PolicyRule = {
  allow: ['*'],
  deny: [],
  auto: [READ_ONLY, 'read_file', 'write_file', 'list_files'],
};

/**
 * The chat tool policy (seed 004 §安全考虑, `CHAT_TOOL_POLICY`): per account type (`default` for the
 * rest), which server tools are available and which are auto-executed; an available tool that is not
 * auto is *confirm*: returned to the client as a tool call instead of being run.
 */
export class ToolPolicy {
  private constructor(private readonly rules: ReadonlyMap<string, PolicyRule>) {}

  /** From a JSON file path or inline JSON; undefined → the default policy. Throws a message naming the problem. */
  static load(source: string | undefined): ToolPolicy {
    if (!source) return new ToolPolicy(new Map([['default', DEFAULT_RULE]]));
    const text = /^\s*[[{]/.test(source) ? source : readPolicyFile(source);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error('CHAT_TOOL_POLICY is not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new Error('CHAT_TOOL_POLICY must be an object of account type → {allow, deny, auto}');
    }
    const rules = new Map<string, PolicyRule>([['default', DEFAULT_RULE]]);
    for (const [accountType, value] of Object.entries(parsed as Record<string, unknown>)) {
      rules.set(accountType, rule(accountType, value));
    }
    return new ToolPolicy(rules);
  }

  mode(accountType: string, tool: string, readOnly: boolean): ToolMode {
    const rule = this.rules.get(accountType) ?? this.rules.get('default')!;
    const matches = (patterns: string[]): boolean =>
      patterns.some((pattern) => (pattern === READ_ONLY ? readOnly : glob(pattern).test(tool)));
    if (!matches(rule.allow) || matches(rule.deny)) return 'unavailable';
    return matches(rule.auto) ? 'auto' : 'confirm';
  }
}

function readPolicyFile(file: string): string {
  const resolved = resolveFromRoot(file);
  if (!existsSync(resolved)) throw new Error(`CHAT_TOOL_POLICY file ${file} does not exist`);
  return readFileSync(resolved, 'utf8');
}

function rule(accountType: string, value: unknown): PolicyRule {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`CHAT_TOOL_POLICY.${accountType} must be an object {allow, deny, auto}`);
  }
  const source = value as Record<string, unknown>;
  const list = (field: keyof PolicyRule, fallback: string[]): string[] => {
    const items = source[field];
    if (items === undefined) return fallback;
    if (!Array.isArray(items) || items.some((item) => typeof item !== 'string')) {
      throw new Error(`CHAT_TOOL_POLICY.${accountType}.${field} must be an array of tool name patterns`);
    }
    return items as string[];
  };
  return { allow: list('allow', DEFAULT_RULE.allow), deny: list('deny', []), auto: list('auto', DEFAULT_RULE.auto) };
}

const globs = new Map<string, RegExp>();

function glob(pattern: string): RegExp {
  let compiled = globs.get(pattern);
  if (!compiled) {
    compiled = new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    globs.set(pattern, compiled);
  }
  return compiled;
}
