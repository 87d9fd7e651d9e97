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
import { INSTANCES_OUTPUT } from './kn-tool-schemas';

const TOOL = 'query_object_instance';

const ARGUMENTS = z.looseObject({
  ot_id: z.string().min(1).describe('Object type id, from kn_schema_search or kn_search'),
  condition: KN_CONDITION.optional().describe(
    'Filter tree, e.g. {"operation":"and","sub_conditions":[{"field":"name","operation":"==","value":"张三"}]}',
  ),
  limit: z
    .number()
    .int()
    .min(INSTANCE_LIMIT.min)
    .max(INSTANCE_LIMIT.max)
    .default(INSTANCE_LIMIT.default)
    .describe(`Most instances to return (${INSTANCE_LIMIT.min}-${INSTANCE_LIMIT.max})`),
  properties: z.array(z.string()).optional().describe('Only these properties (default: all)'),
  include_logic_params: z
    .boolean()
    .default(false)
    .describe('true: add each logic property with its parameter definitions and this instance’s bound values'),
  kn_id: KN_ID_ARGUMENT,
  response_format: RESPONSE_FORMAT_ARGUMENT,
});

const DESCRIPTION =
  'List the instances of one object type that satisfy a condition (exact filters: ==, !=, >, <, in, like, ' +
  'range, exist, match, knn combined with and/or). Returns `datas[]`: each instance with its properties and ' +
  '`_instance_identity` (its primary-key map). Use it after kn_schema_search/kn_search told you the ot_id and ' +
  'property names. Pass `_instance_identity` values on to query_instance_subgraph conditions, ' +
  'resolve_logic_properties (`_instance_identities`) or get_action_info.';

@McpController()
export class QueryObjectInstanceTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly knSearch: KnSearchService,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(ARGUMENTS),
    outputSchema: toolOutput(INSTANCES_OUTPUT),
    annotations: readOnlyTool('Query object instances'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runForNetwork({ tool: TOOL, schema: ARGUMENTS, args, context }, (input, knId) =>
      this.knSearch.queryObjectInstance({
        kn_id: knId,
        ot_id: input.ot_id,
        condition: input.condition,
        limit: input.limit,
        properties: input.properties,
        include_logic_params: input.include_logic_params,
      }),
    );
  }
}
