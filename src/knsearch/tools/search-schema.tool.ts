import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import { requiredText } from '../../common/http/required-text';
import {
  KN_ID_ARGUMENT,
  RESPONSE_FORMAT_ARGUMENT,
  toolOutput,
  toolParameters,
} from '../../common/mcp/mcp-tool-arguments';
import { McpToolRunner, ToolResult } from '../../common/mcp/mcp-tool-runner';
import { readOnlyTool } from '../../common/mcp/tool-annotations';
import { KnSearchService } from '../knsearch.service';
import { maxConceptsArgument, SCHEMA_SCOPE_ARGUMENT, SCHEMA_TYPES_OUTPUT } from './kn-tool-schemas';

const TOOL = 'search_schema';

const ARGUMENTS = z.looseObject({
  query: requiredText().describe('What the user is asking about, in their words (e.g. "糖尿病患者的用药")'),
  search_scope: SCHEMA_SCOPE_ARGUMENT,
  max_concepts: maxConceptsArgument(
    'Relation types kept, object types beyond their endpoints, and metric types returned',
  ),
  schema_brief: z.boolean().default(false).describe('true: ids, names and property names/types only'),
  enable_rerank: z.boolean().default(true).describe('Rank relation types by relevance before cutting'),
  kn_id: KN_ID_ARGUMENT,
  response_format: RESPONSE_FORMAT_ARGUMENT,
});

const DESCRIPTION =
  'Explore the schema of a knowledge network for a question in one call: returns `object_types` (entities with ' +
  'their data and logic properties; the endpoints of the returned relations come first), `relation_types` ' +
  '(how object types connect, with source and target ids), `action_types` (executable operations) and ' +
  '`metric_types` (business measures with unit, formula, scope and analysis dimensions). All four arrays are ' +
  'always present. Use it first to learn the ids a question needs. Next: query_object_instance (an object ' +
  'type id), query_instance_subgraph (relation type ids), resolve_logic_properties, find_skills, ' +
  'get_action_info / execute_action (an action type id).';

@McpController()
export class SearchSchemaTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly knSearch: KnSearchService,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(ARGUMENTS),
    outputSchema: toolOutput(SCHEMA_TYPES_OUTPUT),
    annotations: readOnlyTool('Search knowledge-network schema and metrics'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runForNetwork({ tool: TOOL, schema: ARGUMENTS, args, context }, (input, knId) =>
      this.knSearch.searchSchema({
        kn_id: knId,
        query: input.query,
        search_scope: input.search_scope,
        max_concepts: input.max_concepts,
        schema_brief: input.schema_brief,
        enable_rerank: input.enable_rerank,
      }),
    );
  }
}
