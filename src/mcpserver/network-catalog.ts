import { Injectable } from '@nestjs/common';
import { ResourceNotFoundError } from '@modelcontextprotocol/server';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import {
  ActionType,
  KnSchema,
  KnSummary,
  ObjectType,
  RelationType,
} from '../knowledge-network/knowledge-network.types';

export interface ResourceEntry {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
}

export interface ResourceContents {
  [key: string]: unknown;
  contents: { uri: string; mimeType: string; text: string }[];
}

type Kind = 'object_types' | 'relation_types' | 'action_types';

/** Which networks one connection may read: its X-Kn-ID (when sent) and what the access policy lets it see. */
export interface ResourceScope {
  connectionKnId?: string;
  sees(knId: string): boolean;
}

/** The resource templates of the served networks (read-only). */
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'kn://{kn_id}',
    name: 'knowledge_network',
    description:
      'A knowledge network: name, description, counts, object/relation/action types and concept groups (Markdown, JSON alternative).',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: 'kn://{kn_id}/object_types/{ot_id}',
    name: 'object_type',
    description: 'One object type: primary keys, properties with types, logic properties (Markdown, JSON alternative).',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: 'kn://{kn_id}/relation_types/{rt_id}',
    name: 'relation_type',
    description: 'One relation type: its source and target object types (Markdown, JSON alternative).',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: 'kn://{kn_id}/action_types/{at_id}',
    name: 'action_type',
    description: 'One action type: the object type it acts on and its parameters (Markdown, JSON alternative).',
    mimeType: 'text/markdown',
  },
];

const RESOURCE_URI = /^kn:\/\/([^/]+)(?:\/(object_types|relation_types|action_types)\/([^/]+))?$/;

const MAX_COMPLETIONS = 100;

/**
 * The served knowledge networks as MCP resources (SPEC §7): `kn://{kn_id}` for a network and
 * `kn://{kn_id}/{object_types|relation_types|action_types}/{id}` for its schema, each as Markdown with a
 * JSON alternative, scoped to the connection's X-Kn-ID when it sends one and to the networks the access
 * policy lets the caller see; plus the values `completion/complete` offers for kn_id, ot_id, rt_id, at_id.
 */
@Injectable()
export class NetworkCatalog {
  constructor(private readonly networks: KnowledgeNetworkPort) {}

  /** One resource per network the connection may see (only its X-Kn-ID network when it names one). */
  async list(scope: ResourceScope): Promise<ResourceEntry[]> {
    const summaries = await this.networks.listNetworks();
    return summaries
      .filter((summary) => scope.sees(summary.id) && (!scope.connectionKnId || summary.id === scope.connectionKnId))
      .map((summary) => ({
        uri: `kn://${summary.id}`,
        name: summary.id,
        title: summary.name,
        description:
          `${summary.comment ? `${summary.comment} — ` : ''}${summary.object_type_count} object types, ` +
          `${summary.relation_type_count} relation types, ${summary.action_type_count} action types`,
        mimeType: 'text/markdown',
      }));
  }

  /** A `kn://` resource the connection may read, else the protocol's resource-not-found error. */
  async read(uri: string, scope: ResourceScope): Promise<ResourceContents> {
    const match = RESOURCE_URI.exec(uri);
    // Only kn:// resources are served.
    if (!match) throw new ResourceNotFoundError(uri, 'no such resource: this server serves kn:// resources only');
    const knId = safeDecode(match[1]);
    if (!match[2]) return this.network(uri, knId, scope);
    return this.schemaItem(uri, knId, match[2] as Kind, safeDecode(match[3]), scope);
  }

  private async network(uri: string, knId: string, scope: ResourceScope): Promise<ResourceContents> {
    const { schema, summary } = await this.resolve(uri, knId, scope);
    const lines = [
      `# ${schema.name} (\`${schema.id}\`)`,
      '',
      ...(schema.comment ? [schema.comment, ''] : []),
      `- object types: ${schema.object_types.length}`,
      `- relation types: ${schema.relation_types.length}`,
      `- action types: ${schema.action_types.length}`,
      ...(summary.instance_count !== undefined ? [`- instances: ${summary.instance_count}`] : []),
      '',
      '## Object types',
      '',
      ...schema.object_types.map((ot) => `- \`${ot.id}\` ${ot.name}${ot.comment ? ` — ${ot.comment}` : ''}`),
      '',
      '## Relation types',
      '',
      ...schema.relation_types.map(
        (rt) => `- \`${rt.id}\` ${rt.name}: \`${rt.source_object_type_id}\` → \`${rt.target_object_type_id}\``,
      ),
      '',
      '## Action types',
      '',
      ...schema.action_types.map((at) => `- \`${at.id}\` ${at.name} (on \`${at.object_type_id}\`)`),
      ...(schema.concept_groups.length
        ? [
            '',
            '## Concept groups',
            '',
            ...schema.concept_groups.map(
              (group) => `- \`${group.id}\` ${group.name}: ${group.object_type_ids.join(', ')}`,
            ),
          ]
        : []),
    ];
    const json = {
      id: schema.id,
      name: schema.name,
      comment: schema.comment,
      counts: {
        object_types: schema.object_types.length,
        relation_types: schema.relation_types.length,
        action_types: schema.action_types.length,
        instances: summary.instance_count,
      },
      concept_groups: schema.concept_groups,
    };
    return contents(uri, lines.join('\n'), json);
  }

  private async schemaItem(
    uri: string,
    knId: string,
    kind: Kind,
    id: string,
    scope: ResourceScope,
  ): Promise<ResourceContents> {
    const schema = await this.schema(uri, knId, scope);
    const items: { id: string }[] = schema[kind];
    const item = items.find((candidate) => candidate.id === id);
    if (!item)
      throw new ResourceNotFoundError(uri, `no ${kind.replace(/_types$/, ' type')} "${id}" in network "${knId}"`);
    const markdown =
      kind === 'object_types'
        ? objectTypeMarkdown(item as ObjectType)
        : kind === 'relation_types'
          ? relationTypeMarkdown(item as RelationType)
          : actionTypeMarkdown(item as ActionType);
    return contents(uri, markdown, item);
  }

  /** Completion values for a prompt or template argument, by prefix, from the served networks. */
  async complete(
    argument: string,
    prefix: string,
    knId: string | undefined,
    scope: ResourceScope,
  ): Promise<{ values: string[]; total: number; hasMore: boolean }> {
    let values: string[] = [];
    if (argument === 'kn_id') {
      values = (await this.networks.listNetworks()).map((summary) => summary.id).filter((id) => scope.sees(id));
    } else if (knId && scope.sees(knId) && ['ot_id', 'rt_id', 'at_id'].includes(argument)) {
      const schema = await this.networks.exportSchema(knId).catch(() => undefined);
      const kind: Kind =
        argument === 'ot_id' ? 'object_types' : argument === 'rt_id' ? 'relation_types' : 'action_types';
      values = (schema?.[kind] ?? []).map((item: { id: string }) => item.id);
    }
    const matching = values.filter((value) => value.startsWith(prefix)).sort();
    return {
      values: matching.slice(0, MAX_COMPLETIONS),
      total: matching.length,
      hasMore: matching.length > MAX_COMPLETIONS,
    };
  }

  private async schema(uri: string, knId: string, scope: ResourceScope): Promise<KnSchema> {
    return (await this.resolve(uri, knId, scope)).schema;
  }

  /** A network the connection may read: its summary (one listing) and schema, else resource-not-found. */
  private async resolve(
    uri: string,
    knId: string,
    scope: ResourceScope,
  ): Promise<{ schema: KnSchema; summary: KnSummary }> {
    // The connection's X-Kn-ID is its scope: another network's resources are not there for it.
    if (scope.connectionKnId && scope.connectionKnId !== knId)
      throw new ResourceNotFoundError(uri, `network "${knId}" is outside this connection's X-Kn-ID`);
    // A network the access policy hides answers exactly as one that does not exist.
    const summary = scope.sees(knId)
      ? (await this.networks.listNetworks()).find((entry) => entry.id === knId)
      : undefined;
    if (!summary) throw new ResourceNotFoundError(uri, `no knowledge network "${knId}"`);
    return { schema: await this.networks.exportSchema(knId), summary };
  }
}

function contents(uri: string, markdown: string, json: unknown): ResourceContents {
  return {
    contents: [
      { uri, mimeType: 'text/markdown', text: markdown },
      { uri, mimeType: 'application/json', text: JSON.stringify(json) },
    ],
  };
}

function objectTypeMarkdown(ot: ObjectType): string {
  return [
    `# ${ot.name} (\`${ot.id}\`)`,
    '',
    ...(ot.comment ? [ot.comment, ''] : []),
    `Primary keys: ${ot.primary_keys.map((key) => `\`${key}\``).join(', ') || '—'}${ot.display_key ? `; display key \`${ot.display_key}\`` : ''}`,
    '',
    '## Properties',
    '',
    '| name | type | description |',
    '|---|---|---|',
    ...ot.data_properties.map(
      (p) => `| \`${p.name}\` | ${p.type} | ${cell(p.display_name ?? '')}${p.comment ? ` ${cell(p.comment)}` : ''} |`,
    ),
    ...(ot.logic_properties.length
      ? [
          '',
          '## Logic properties',
          '',
          ...ot.logic_properties.map((p) => `- \`${p.name}\`${p.display_name ? ` ${p.display_name}` : ''} (${p.type})`),
        ]
      : []),
  ].join('\n');
}

function relationTypeMarkdown(rt: RelationType): string {
  return [
    `# ${rt.name} (\`${rt.id}\`)`,
    '',
    ...(rt.comment ? [rt.comment, ''] : []),
    `\`${rt.source_object_type_id}\` → \`${rt.target_object_type_id}\`${rt.type ? ` (${rt.type})` : ''}`,
  ].join('\n');
}

function actionTypeMarkdown(at: ActionType): string {
  return [
    `# ${at.name} (\`${at.id}\`)`,
    '',
    ...(at.comment ? [at.comment, ''] : []),
    `On \`${at.object_type_id}\`${at.action_type ? `, kind ${at.action_type}` : ''}. Recall it with get_action_info before running it; never run it without the user.`,
    '',
    '## Parameters',
    '',
    ...at.parameters.map((p) => `- \`${p.name}\` ${p.type}, from ${p.value_from}${p.comment ? ` — ${p.comment}` : ''}`),
  ].join('\n');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
