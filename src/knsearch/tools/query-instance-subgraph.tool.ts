import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import { INSTANCE_LIMIT } from '../knsearch.limits';
import { KnSearchService } from '../knsearch.service';
import {
  KN_ID_ARGUMENT,
  RESPONSE_FORMAT_ARGUMENT,
  toolOutput,
  toolParameters,
} from '../../common/mcp/mcp-tool-arguments';
import { McpToolRunner, ToolResult } from '../../common/mcp/mcp-tool-runner';
import { readOnlyTool } from '../../common/mcp/tool-annotations';
import { KN_CONDITION } from '../../knowledge-network/knowledge-network.schemas';
import { SUBGRAPH_OUTPUT } from './kn-tool-schemas';

const TOOL = 'query_instance_subgraph';

const OBJECT_TYPE_STEP = z.looseObject({
  id: z.string().min(1).describe('Object type id of this hop'),
  condition: KN_CONDITION.optional().describe('Filter on this hop (e.g. the starting instance)'),
  sort: z.array(z.looseObject({ field: z.string(), direction: z.enum(['asc', 'desc']) })).optional(),
  limit: z.number().int().min(INSTANCE_LIMIT.min).max(INSTANCE_LIMIT.max).optional(),
});

const RELATION_STEP = z.looseObject({
  relation_type_id: z.string().min(1),
  source_object_type_id: z.string().min(1),
  target_object_type_id: z.string().min(1),
});

const ARGUMENTS = z.looseObject({
  relation_type_paths: z
    .array(
      z.looseObject({
        object_types: z.array(OBJECT_TYPE_STEP).min(1).describe('n+1 object types for n hops, in path order'),
        relation_types: z.array(RELATION_STEP).describe('n relation types linking consecutive object types'),
        limit: z.number().int().min(INSTANCE_LIMIT.min).max(INSTANCE_LIMIT.max).optional(),
      }),
    )
    .min(1)
    .describe('One or more relation paths to expand'),
  include_logic_params: z
    .boolean()
    .default(false)
    .describe('true: add each logic property with its parameter definitions and this instance’s bound values'),
  kn_id: KN_ID_ARGUMENT,
  response_format: RESPONSE_FORMAT_ARGUMENT,
});

const DESCRIPTION =
  'Follow relations between instances (multi-hop): for each relation path (object type → relation type → ' +
  'object type …, each object type with its own condition and limit) returns `entries[]` with the connected ' +
  '`objects` (keyed by id, with unique_identities and properties) and their `relation_paths`. Use it to answer ' +
  'questions such as "which drugs were prescribed for this patient\'s diagnosis"; get the relation type ids from ' +
  'kn_schema_search and the starting instance from query_object_instance or kn_search. Continue with ' +
  'resolve_logic_properties or get_action_info on the instances found.';

@McpController()
export class QueryInstanceSubgraphTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly knSearch: KnSearchService,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(ARGUMENTS),
    outputSchema: toolOutput(SUBGRAPH_OUTPUT),
    annotations: readOnlyTool('Query instance subgraph'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runForNetwork({ tool: TOOL, schema: ARGUMENTS, args, context }, (input, knId) =>
      this.knSearch.queryInstanceSubgraph({
        kn_id: knId,
        relation_type_paths: input.relation_type_paths,
        include_logic_params: input.include_logic_params,
      }),
    );
  }
}
