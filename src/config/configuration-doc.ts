import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { describedVariables } from './env.decorators';
import { NAMESPACES } from './index';

/** Section titles of docs/configuration.md, one per configuration area, in this order. */
export const AREA_TITLES: Record<keyof typeof NAMESPACES, string> = {
  server: 'Server',
  limits: 'Request limits',
  auth: 'Authentication',
  governance: 'Access policy',
  kn: 'Knowledge networks',
  kb: 'Knowledge-base search',
  chat: 'Chat',
  upstream: 'KWeaver upstreams',
  i18n: 'Languages',
  metrics: 'Metrics',
  rateLimit: 'Rate limits',
  operators: 'Actions and tool proxies',
  mcp: 'MCP endpoint',
  ckb: 'CKB and code index',
  redis: 'Shared state',
  workers: 'Search workers',
  tracing: 'Tracing',
};

export interface DocumentedVariable {
  name: string;
  defaultValue: unknown;
  values: string;
  text: string | undefined;
  whenUnset: string | undefined;
}

const HEADER = `# Configuration

<!-- Generated from the configuration classes in src/config by \`npm run docs:config\`; do not edit by hand. -->

Everything is configured with environment variables, validated at start-up. An invalid value stops
the process with one line per problem, naming the variable:

\`\`\`bash
PORT=eighty npm start
# Invalid configuration: PORT must be an integer between 0 and 65535 (got "eighty")
\`\`\`

"Default" is what an unset (or empty) variable means; "values" is what start-up accepts.
`;

/** Every variable of one environment class, in declaration order, with what validation accepts. */
export function documentedVariables(envClass: new () => object): DocumentedVariable[] {
  const defaults = new envClass() as Record<string, unknown>;
  const rules = getMetadataStorage().getTargetValidationMetadatas(envClass, '', true, false);
  const described = describedVariables(envClass);
  const names = [...new Set(rules.map((rule) => rule.propertyName))];
  return names.map((name) => ({
    name,
    defaultValue: defaults[name],
    values: acceptedValues(rules.filter((rule) => rule.propertyName === name)),
    text: described.get(name)?.text,
    whenUnset: described.get(name)?.whenUnset,
  }));
}

function acceptedValues(rules: ValidationMetadata[]): string {
  const has = (name: string): boolean => rules.some((rule) => rule.name === name);
  const constraint = (name: string): unknown[] | undefined => rules.find((rule) => rule.name === name)?.constraints;
  const min = constraint('min')?.[0];
  const max = constraint('max')?.[0];
  const choices = constraint('isIn')?.[0];
  if (Array.isArray(choices)) return choices.map((choice) => `\`${String(choice)}\``).join(', ');
  if (has('isInt')) return `integer ${String(min)}–${String(max)}`;
  if (has('isBoolean')) return '`true` / `false`';
  if (has('isUrl')) return 'http(s) URL';
  const pattern = rules.find((rule) => rule.name === 'matches');
  if (pattern && typeof pattern.message === 'string') {
    return `text that ${pattern.message.replace(/^(\$property|[A-Z][A-Z0-9_]*) /, '')}`;
  }
  return 'text';
}

function defaultCell(variable: DocumentedVariable): string {
  if (variable.defaultValue !== undefined) return `\`${String(variable.defaultValue)}\``;
  return variable.whenUnset ? `*unset: ${variable.whenUnset}*` : '—';
}

/** docs/configuration.md as the configuration classes define it today. */
export function renderConfigurationDoc(): string {
  const sections = Object.entries(NAMESPACES).map(([key, namespace]) => {
    const rows = documentedVariables(namespace.env).map(
      (variable) => `| \`${variable.name}\` | ${defaultCell(variable)} | ${variable.values} | ${variable.text ?? ''} |`,
    );
    const title = AREA_TITLES[key as keyof typeof NAMESPACES];
    return [`## ${title}`, '', '| Variable | Default | Values | Meaning |', '|---|---|---|---|', ...rows].join('\n');
  });
  return `${HEADER}\n${sections.join('\n\n')}\n`;
}
