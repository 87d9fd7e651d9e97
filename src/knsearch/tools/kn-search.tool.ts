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
import { KN_SEARCH_OUTPUT } from './kn-tool-schemas';

const TOOL = 'kn_search';

const ARGUMENTS = z.looseObject({
  query: requiredText().describe('The user question or keywords (e.g. "糖尿病治疗方案")'),
  only_schema: z.boolean().default(false).describe('true: return only concepts, no instance nodes'),
  enable_rerank: z.boolean().default(true).describe('Rerank recalled concepts for relevance'),
  kn_id: KN_ID_ARGUMENT,
  response_format: RESPONSE_FORMAT_ARGUMENT,
});

const DESCRIPTION =
  'Search the knowledge network for a question in one call: recalls the relevant object_types, relation_types ' +
  'and action_types (schema) and, unless only_schema=true, the instance `nodes` that match semantically (each ' +
  'with object_type_id, instance_name, unique_identities, properties and score), plus `message` when nothing ' +
  'matched. Use it as the entry point for open questions. Next: query_object_instance (ot_id + condition) to ' +
  'filter instances exactly, query_instance_subgraph to follow relations from a node, resolve_logic_properties ' +
  'for computed values and get_action_info (at_id + unique_identities) for executable actions.';

@McpController()
export class KnSearchTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly knSearch: KnSearchService,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(ARGUMENTS),
    outputSchema: toolOutput(KN_SEARCH_OUTPUT),
    annotations: readOnlyTool('Search knowledge network'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runForNetwork({ tool: TOOL, schema: ARGUMENTS, args, context }, (input, knId) =>
      this.knSearch.knSearch({
        kn_id: knId,
        query: input.query,
        only_schema: input.only_schema,
        enable_rerank: input.enable_rerank,
      }),
    );
  }
}
