import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import { MAX_LOGIC_PROPERTIES } from '../knsearch.limits';
import { KnSearchService } from '../knsearch.service';
import {
  KN_ID_ARGUMENT,
  RESPONSE_FORMAT_ARGUMENT,
  toolOutput,
  toolParameters,
} from '../../common/mcp/mcp-tool-arguments';
import { requiredText } from '../../common/http/required-text';
import { McpToolRunner, ToolResult } from '../../common/mcp/mcp-tool-runner';
import { readOnlyTool } from '../../common/mcp/tool-annotations';
import { INSTANCE_IDENTITY } from '../../knowledge-network/knowledge-network.schemas';
import { INSTANCES_OUTPUT } from './kn-tool-schemas';

const TOOL = 'resolve_logic_properties';

const ARGUMENTS = z.looseObject({
  ot_id: z.string().min(1).describe('Object type that declares the logic properties'),
  query: requiredText().describe('The user question the values are for (used to fill time ranges and inputs)'),
  _instance_identities: z
    .array(INSTANCE_IDENTITY)
    .min(1)
    .describe('Instances to compute for: `_instance_identity` values from query_object_instance'),
  properties: z
    .array(z.string().min(1))
    .min(1)
    .max(MAX_LOGIC_PROPERTIES)
    .describe('Logic property names (metrics/operators) to resolve'),
  additional_context: z
    .string()
    .optional()
    .describe('Extra context; a JSON object string supplies input parameter values by name'),
  kn_id: KN_ID_ARGUMENT,
  response_format: RESPONSE_FORMAT_ARGUMENT,
});

const DESCRIPTION =
  "Compute logic properties (metrics and operators that are not stored, e.g. a patient's visit count in a " +
  "period) for given instances. Returns `datas[]`: one row per instance identity with each requested property's " +
  "value. Use it after kn_schema_search showed the object type's logic_properties and query_object_instance " +
  'returned the `_instance_identity` values. Then get_action_info if the user wants to act on the result.';

@McpController()
export class ResolveLogicPropertiesTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly knSearch: KnSearchService,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(ARGUMENTS),
    outputSchema: toolOutput(INSTANCES_OUTPUT),
    annotations: readOnlyTool('Resolve logic properties'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runForNetwork({ tool: TOOL, schema: ARGUMENTS, args, context }, (input, knId) =>
      this.knSearch.resolveLogicProperties({
        kn_id: knId,
        ot_id: input.ot_id,
        query: input.query,
        _instance_identities: input._instance_identities,
        properties: input.properties,
        additional_context: input.additional_context,
      }),
    );
  }
}
