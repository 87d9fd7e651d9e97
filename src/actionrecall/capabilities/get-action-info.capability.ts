import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { INSTANCE_IDENTITY } from '../../knowledge-network/knowledge-network.schemas';
import { ActionRecallService } from '../actionrecall.service';

const LOOSE_RECORD = z.looseObject({});

const OUTPUT = z.looseObject({
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

/** `get_action_info` (seed 000): an action type recalled as OpenAI function-call definitions. */
export const GET_ACTION_INFO = defineCapability({
  name: 'get_action_info',
  title: { 'en-US': 'Recall executable actions', 'zh-Hans': '召回可执行行动' },
  description: {
    'en-US':
      'Shows how to run an action type on given instances: its parameters as a function definition. Use it before execute_action; to find action types use kn_search.',
    'zh-Hans':
      '展示如何对指定实例执行某行动类：以函数定义给出其参数。在 execute_action 之前使用；查找行动类请用 kn_search。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  needs: 'actions',
  arguments: {
    at_id: z.string().min(1).describe('Action type id, from kn_schema_search or kn_search action_types'),
    _instance_identities: z
      .array(INSTANCE_IDENTITY)
      .optional()
      .describe('Instances the action is for (`_instance_identity` values from the query tools)'),
    _instance_identity: INSTANCE_IDENTITY.optional().describe(
      'One instance the action is for; `_instance_identities` wins when it is not empty',
    ),
  },
  output: OUTPUT,
  text: 'json',
  rest: { method: 'POST', path: 'kn/get_action_info' },
  service: ActionRecallService,
  run: (actions, input, context) =>
    actions.getActionInfo(
      {
        kn_id: context.knId,
        at_id: input.at_id,
        _instance_identity: input._instance_identity,
        _instance_identities: input._instance_identities,
      },
      context.principal,
    ),
});
