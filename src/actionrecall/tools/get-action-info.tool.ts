import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import { ActionRecallService } from '../actionrecall.service';
import { KN_ID_ARGUMENT, toolOutput, toolParameters } from '../../common/mcp/mcp-tool-arguments';
import { McpToolRunner, ToolResult } from '../../common/mcp/mcp-tool-runner';
import { readOnlyTool } from '../../common/mcp/tool-annotations';
import { INSTANCE_IDENTITY } from '../../knowledge-network/knowledge-network.schemas';

const TOOL = 'get_action_info';

const ARGUMENTS = z.looseObject({
  at_id: z.string().min(1).describe('Action type id, from kn_schema_search or kn_search action_types'),
  _instance_identities: z
    .array(INSTANCE_IDENTITY)
    .optional()
    .describe('Instances the action is for (`_instance_identity` values from the query tools)'),
  kn_id: KN_ID_ARGUMENT,
  response_format: z
    .enum(['json', 'toon'])
    .optional()
    .describe('Ignored: this tool always answers JSON (function-call definitions must stay machine-readable)'),
});

const LOOSE_RECORD = z.looseObject({});

const ACTION_INFO_OUTPUT = z.looseObject({
  headers: z.record(z.string(), z.string()),
  _dynamic_tools: z.array(
    z.looseObject({
      name: z.string(),
      description: z.string(),
      parameters: LOOSE_RECORD,
      api_url: z.string(),
      fixed_params: LOOSE_RECORD,
      api_call_strategy: z.string(),
    }),
  ),
});

const DESCRIPTION =
  'Recall the executable action behind an action type for given instances. Returns `_dynamic_tools[]`: ' +
  'OpenAI function-call definitions (name, description, JSON-Schema `parameters`) plus `api_url`, ' +
  '`fixed_params` and the `headers` to send when executing it. Use it last in the chain — after ' +
  'kn_schema_search/kn_search found the action type (at_id) and query_object_instance found the instance ' +
  'identities — when the user wants to do something (e.g. create a prescription). This tool only describes ' +
  'the action; it never executes it. An empty list means the action has no executable source.';

@McpController()
export class GetActionInfoTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly actionRecall: ActionRecallService,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(ARGUMENTS),
    outputSchema: toolOutput(ACTION_INFO_OUTPUT),
    annotations: readOnlyTool('Recall executable actions'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runForNetwork(
      { tool: TOOL, schema: ARGUMENTS, args, context, alwaysJson: true },
      (input, knId) =>
        this.actionRecall.getActionInfo({
          kn_id: knId,
          at_id: input.at_id,
          _instance_identities: input._instance_identities,
        }),
    );
  }
}
