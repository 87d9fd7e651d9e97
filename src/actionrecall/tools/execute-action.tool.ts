import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import { KN_ID_ARGUMENT, toolOutput, toolParameters } from '../../common/mcp/mcp-tool-arguments';
import { McpToolRunner, ToolResult } from '../../common/mcp/mcp-tool-runner';
import { destructiveTool } from '../../common/mcp/tool-annotations';
import { INSTANCE_IDENTITY } from '../../knowledge-network/knowledge-network.schemas';
import { ActionExecutionService } from '../action-execution.service';

const TOOL = 'execute_action';

const JSON_OBJECT = z.record(z.string(), z.unknown());

const ARGUMENTS = z.looseObject({
  at_id: z.string().min(1).describe('Action type id, from kn_search / kn_schema_search action_types'),
  _instance_identity: INSTANCE_IDENTITY.describe(
    'The one instance to act on: its `_instance_identity` from query_object_instance or kn_search',
  ),
  arguments: JSON_OBJECT.optional().describe(
    'Input arguments for the action, named as in get_action_info `parameters` (flat names; a toolbox tool also ' +
      'takes {header, path, query, body}). Leave out what the network fixes: fixed values always win.',
  ),
  confirm: z
    .boolean()
    .optional()
    .describe(
      'true only after the user approved this exact execution; required when the action requires approval or is high risk',
    ),
  kn_id: KN_ID_ARGUMENT,
  response_format: z.enum(['json', 'toon']).optional().describe('Ignored: this tool always answers JSON'),
});

const EXECUTION_OUTPUT = z.looseObject({
  at_id: z.string(),
  kn_id: z.string(),
  action: z.looseObject({
    name: z.string(),
    action_type: z.string().optional(),
    risk_level: z.string().optional(),
    source: z.looseObject({ type: z.string() }),
  }),
  _instance_identity: JSON_OBJECT,
  arguments: JSON_OBJECT,
  fixed_arguments: z.looseObject({ applied: z.array(z.string()), overridden: z.array(z.string()) }),
  outcome: z.enum(['ok', 'tool_error']),
  result: z.union([
    z.looseObject({
      content: z.array(z.unknown()),
      isError: z.boolean().optional(),
      structuredContent: JSON_OBJECT.optional(),
    }),
    z.looseObject({ status_code: z.number().int(), headers: z.record(z.string(), z.string()), body: z.unknown() }),
  ]),
});

const DESCRIPTION =
  'Execute an action type for one instance — the step after get_action_info, once the user wants it done. ' +
  "Runs the action's bound tool (an MCP tool or a toolbox HTTP operation) with the knowledge network's fixed " +
  'values merged over `arguments` (fixed values win), after validating the merged arguments against the ' +
  "action's parameters schema. Returns `{at_id, kn_id, action{name, action_type, risk_level, source}, " +
  '_instance_identity, arguments (as sent), fixed_arguments{applied, overridden}, outcome (ok | tool_error), ' +
  "result}` where result is the tool's own answer (MCP `{content, isError, structuredContent}` or toolbox " +
  '`{status_code, headers, body}`). Refused with isError, naming why, when the action is disabled, when an ' +
  'argument is invalid (each field listed), when its trigger condition or a pre-condition does not hold for ' +
  'the instance, or when it requires approval and `confirm` is not true: then show the user the action and ' +
  'its arguments and call again with confirm: true only after they approve. This changes real systems.';

@McpController()
export class ExecuteActionTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly executions: ActionExecutionService,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(ARGUMENTS),
    outputSchema: toolOutput(EXECUTION_OUTPUT),
    annotations: destructiveTool('Execute an action'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runForNetwork(
      { tool: TOOL, schema: ARGUMENTS, args, context, alwaysJson: true },
      (input, knId) =>
        this.executions.execute({
          kn_id: knId,
          at_id: input.at_id,
          _instance_identity: input._instance_identity,
          arguments: input.arguments,
          confirm: input.confirm,
        }),
    );
  }
}
