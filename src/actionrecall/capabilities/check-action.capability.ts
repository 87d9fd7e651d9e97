import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { INSTANCE_IDENTITY } from '../../knowledge-network/knowledge-network.schemas';
import { ActionExecutionService } from '../action-execution.service';
import { ACTION_CALL_FIELDS, FIXED_ARGUMENTS, JSON_OBJECT } from './action-answer';

const OUTPUT = z.looseObject({
  ...ACTION_CALL_FIELDS,
  enabled: z.boolean(),
  arguments: JSON_OBJECT,
  fixed_arguments: FIXED_ARGUMENTS,
  argument_errors: z.array(z.string()),
  conditions: z.array(
    z.looseObject({
      kind: z.enum(['trigger', 'pre']),
      condition: z.string(),
      holds: z.boolean(),
      found: z.string().optional(),
      message: z.string().optional(),
    }),
  ),
  requires_confirmation: z.boolean(),
  would_run: z.boolean(),
});

/**
 * `check_action`: a dry run of execute_action for one instance — the same binding, merged arguments and
 * condition checks, every verdict reported, and the tool never called. Read-only, so a policy that allows
 * only reads still lets an agent ask whether an action would run.
 */
export const CHECK_ACTION = defineCapability({
  name: 'check_action',
  title: { 'en-US': 'Dry-run an action', 'zh-Hans': '试运行行动' },
  description: {
    'en-US':
      'Dry run of execute_action for one instance: the arguments it would send, argument errors, each condition ' +
      'with whether it holds, and whether it would run or needs confirmation. Runs nothing.',
    'zh-Hans':
      '对一个实例试运行 execute_action：将发送的参数、参数错误、每个条件是否成立，以及是否会执行或需要确认。不执行任何操作。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  needs: 'actions',
  arguments: {
    at_id: z.string().min(1).describe('Action type id, from kn_search / kn_schema_search action_types'),
    _instance_identity: INSTANCE_IDENTITY.describe(
      'The one instance to check: its `_instance_identity` from query_object_instance or kn_search',
    ),
    arguments: JSON_OBJECT.optional().describe(
      'Input arguments as execute_action would take them; fixed values are merged over them',
    ),
  },
  output: OUTPUT,
  text: 'json',
  rest: { method: 'POST', path: 'kn/check_action' },
  service: ActionExecutionService,
  run: (executions, input, context) =>
    executions.dryRun({
      kn_id: context.knId,
      at_id: input.at_id,
      _instance_identity: input._instance_identity,
      arguments: input.arguments,
    }),
});
