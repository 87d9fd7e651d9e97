import { z } from 'zod';
import { defineCapability, DESTRUCTIVE } from '../../capabilities/capability';
import { INSTANCE_IDENTITY } from '../../knowledge-network/knowledge-network.schemas';
import { ActionExecutionService } from '../action-execution.service';
import { ACTION_CALL_FIELDS, FIXED_ARGUMENTS, JSON_OBJECT } from './action-answer';

const OUTPUT = z.looseObject({
  ...ACTION_CALL_FIELDS,
  arguments: JSON_OBJECT,
  fixed_arguments: FIXED_ARGUMENTS,
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

/**
 * `execute_action`: the only way an action's tool runs (SPEC §10, §12) — fixed values merged, arguments
 * validated, the action type's enabled flag, trigger condition, pre-conditions and approval enforced.
 */
export const EXECUTE_ACTION = defineCapability({
  name: 'execute_action',
  title: { 'en-US': 'Execute an action', 'zh-Hans': '执行行动' },
  description: {
    'en-US':
      'Runs an action type on one instance, after get_action_info, once the user wants it done; it changes real systems. When approval is required, show the user the action and its arguments and call again with confirm: true only after they approve.',
    'zh-Hans':
      '对一个实例执行行动类：在 get_action_info 之后、用户确实要执行时使用；它会改变真实系统。需要审批时，先向用户展示行动及其参数，只有在用户批准后才带 confirm: true 再次调用。',
  },
  governance: 'act',
  annotations: DESTRUCTIVE,
  network: 'required',
  needs: 'actions',
  arguments: {
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
  },
  output: OUTPUT,
  text: 'json',
  rest: { method: 'POST', path: 'kn/execute_action' },
  service: ActionExecutionService,
  run: (executions, input, context) =>
    executions.execute({
      kn_id: context.knId,
      at_id: input.at_id,
      _instance_identity: input._instance_identity,
      arguments: input.arguments,
      confirm: input.confirm,
      human: context.human,
      language: context.language,
    }),
});
