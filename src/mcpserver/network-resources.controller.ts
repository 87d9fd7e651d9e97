import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, ResourceTemplate } from '@rekog/mcp-nest';
import type { Request } from 'express';
import { connectionScope } from './connection-scope';
import { NetworkCatalog, ResourceContents } from './network-catalog';

interface TemplateParams {
  uri: string;
  kn_id: string;
  ot_id?: string;
  rt_id?: string;
  at_id?: string;
}

/** The connection's X-Kn-ID, the scope of every resource it may read. */
export function connectionKnId(context: McpContext): string | undefined {
  return connectionScope(context.getRawRequest<Request>());
}

/**
 * Resource templates of the served knowledge networks (read-only; the route's auth applies). The
 * network list itself (`resources/list`) comes from the catalog, per connection.
 */
@McpController()
export class NetworkResources {
  constructor(private readonly catalog: NetworkCatalog) {}

  @ResourceTemplate({
    uriTemplate: 'kn://{kn_id}',
    name: 'knowledge_network',
    description:
      'A knowledge network: name, description, counts, object/relation/action types and concept groups (Markdown, JSON alternative).',
    mimeType: 'text/markdown',
  })
  network(@Payload() params: TemplateParams, @Ctx() context: McpContext): Promise<ResourceContents> {
    return this.catalog.network(params.uri, params.kn_id, connectionKnId(context));
  }

  @ResourceTemplate({
    uriTemplate: 'kn://{kn_id}/object_types/{ot_id}',
    name: 'object_type',
    description: 'One object type: primary keys, properties with types, logic properties (Markdown, JSON alternative).',
    mimeType: 'text/markdown',
  })
  objectType(@Payload() params: TemplateParams, @Ctx() context: McpContext): Promise<ResourceContents> {
    return this.catalog.schemaItem(
      params.uri,
      params.kn_id,
      'object_types',
      params.ot_id ?? '',
      connectionKnId(context),
    );
  }

  @ResourceTemplate({
    uriTemplate: 'kn://{kn_id}/relation_types/{rt_id}',
    name: 'relation_type',
    description: 'One relation type: its source and target object types (Markdown, JSON alternative).',
    mimeType: 'text/markdown',
  })
  relationType(@Payload() params: TemplateParams, @Ctx() context: McpContext): Promise<ResourceContents> {
    return this.catalog.schemaItem(
      params.uri,
      params.kn_id,
      'relation_types',
      params.rt_id ?? '',
      connectionKnId(context),
    );
  }

  @ResourceTemplate({
    uriTemplate: 'kn://{kn_id}/action_types/{at_id}',
    name: 'action_type',
    description: 'One action type: the object type it acts on and its parameters (Markdown, JSON alternative).',
    mimeType: 'text/markdown',
  })
  actionType(@Payload() params: TemplateParams, @Ctx() context: McpContext): Promise<ResourceContents> {
    return this.catalog.schemaItem(
      params.uri,
      params.kn_id,
      'action_types',
      params.at_id ?? '',
      connectionKnId(context),
    );
  }
}
