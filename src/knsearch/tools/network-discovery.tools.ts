import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import {
  KN_ID_ARGUMENT,
  RESPONSE_FORMAT_ARGUMENT,
  toolOutput,
  toolParameters,
} from '../../common/mcp/mcp-tool-arguments';
import { McpToolRunner, ToolResult } from '../../common/mcp/mcp-tool-runner';
import { readOnlyTool } from '../../common/mcp/tool-annotations';
import { KnSearchService } from '../knsearch.service';

const LIST_ARGUMENTS = z.looseObject({ response_format: RESPONSE_FORMAT_ARGUMENT });

const LIST_OUTPUT = z.looseObject({
  networks: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string(),
      object_type_count: z.number().int(),
      relation_type_count: z.number().int(),
      action_type_count: z.number().int(),
    }),
  ),
});

const DETAIL_ARGUMENTS = z.looseObject({
  kn_id: KN_ID_ARGUMENT,
  brief: z
    .boolean()
    .default(true)
    .describe('true (default): ids, names and relation endpoints only; false: every field of every type'),
  response_format: RESPONSE_FORMAT_ARGUMENT,
});

const RECORDS = z.array(z.looseObject({ id: z.string(), name: z.string() }));

const DETAIL_OUTPUT = z.looseObject({
  id: z.string(),
  name: z.string(),
  counts: z.looseObject({
    object_types: z.number().int(),
    relation_types: z.number().int(),
    action_types: z.number().int(),
    metric_types: z.number().int(),
  }),
  concept_groups: z.array(z.looseObject({ id: z.string(), name: z.string() })),
  object_types: RECORDS,
  relation_types: RECORDS,
  action_types: RECORDS,
  metric_types: RECORDS,
});

/** `list_knowledge_networks` (issue 15): the `/kn/networks` answer, so a client without X-Kn-ID can pick one. */
@McpController()
export class ListKnowledgeNetworksTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly knSearch: KnSearchService,
  ) {}

  @Tool({
    name: 'list_knowledge_networks',
    description:
      'List the knowledge networks this service serves: id, name, description and counts of object, relation ' +
      'and action types (and instances when known). Use it first when the connection has no X-Kn-ID or the user ' +
      'asks what data exists. Next: get_kn_detail with a kn_id, then search_schema or kn_search with that kn_id.',
    parameters: toolParameters(LIST_ARGUMENTS),
    outputSchema: toolOutput(LIST_OUTPUT),
    annotations: readOnlyTool('List knowledge networks'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runWithoutNetwork(
      { tool: 'list_knowledge_networks', schema: LIST_ARGUMENTS, args, context },
      async () => ({ networks: await this.knSearch.listNetworks() }),
    );
  }
}

/** `get_kn_detail` (issue 15): one network's concept groups and types with counts, brief by default. */
@McpController()
export class GetKnDetailTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly knSearch: KnSearchService,
  ) {}

  @Tool({
    name: 'get_kn_detail',
    description:
      'Describe one knowledge network: counts, concept groups, and its object types, relation types (with their ' +
      'source and target object types), action types and metric types (with their scope) — ids and names by ' +
      'default, every field with brief=false. Use it to learn a network before querying it. Next: search_schema ' +
      'or kn_search for a question, query_object_instance with an object type id.',
    parameters: toolParameters(DETAIL_ARGUMENTS),
    outputSchema: toolOutput(DETAIL_OUTPUT),
    annotations: readOnlyTool('Describe a knowledge network'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runForNetwork(
      { tool: 'get_kn_detail', schema: DETAIL_ARGUMENTS, args, context },
      (input, knId) => this.knSearch.networkDetail(knId, input.brief),
    );
  }
}
