import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
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
import { maxConceptsArgument, SCHEMA_SEARCH_OUTPUT, SEARCH_SCOPE_ARGUMENT } from './kn-tool-schemas';

const TOOL = 'kn_schema_search';

const ARGUMENTS = z.looseObject({
  query: requiredText().describe('What the user is asking about, in their words (e.g. "患者的诊断和用药")'),
  search_scope: SEARCH_SCOPE_ARGUMENT,
  max_concepts: maxConceptsArgument('Most concepts to return'),
  kn_id: KN_ID_ARGUMENT,
  response_format: RESPONSE_FORMAT_ARGUMENT,
});

const DESCRIPTION =
  'Find the schema concepts of the knowledge network that match a question: object types (entities such as ' +
  'patient or drug, with their data properties and primary keys), relation types (how object types connect) ' +
  'and action types (operations that can be executed). Returns `concepts[]` with concept_type, concept_id, ' +
  'concept_name and the full concept_detail. Use it first when you do not yet know the ids: pass an object ' +
  'type id (ot_id) to query_object_instance, relation type ids to query_instance_subgraph, logic properties ' +
  'to resolve_logic_properties and an action type id (at_id) to get_action_info. For concepts plus matching ' +
  'instances in one call, use kn_search.';

@McpController()
export class KnSchemaSearchTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly knSearch: KnSearchService,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(ARGUMENTS),
    outputSchema: toolOutput(SCHEMA_SEARCH_OUTPUT),
    annotations: readOnlyTool('Search knowledge-network schema'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runForNetwork({ tool: TOOL, schema: ARGUMENTS, args, context }, (input, knId) =>
      this.knSearch.semanticSearch({
        kn_id: knId,
        query: input.query,
        search_scope: input.search_scope,
        max_concepts: input.max_concepts,
      }),
    );
  }
}
