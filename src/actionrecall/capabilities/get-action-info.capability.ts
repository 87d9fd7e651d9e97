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
      'Recall the executable action behind an action type for given instances. Returns `_dynamic_tools[]`: ' +
      'OpenAI function-call definitions (name, description, JSON-Schema `parameters`) plus `api_url`, ' +
      '`fixed_params` and the `headers` to send when executing it. Use it last in the chain — after ' +
      'kn_schema_search/kn_search found the action type (at_id) and query_object_instance found the instance ' +
      'identities — when the user wants to do something (e.g. create a prescription). This tool only describes ' +
      'the action; it never executes it. An empty list means the action has no executable source.',
    'zh-Hans':
      '为给定实例召回行动类背后的可执行行动。返回 `_dynamic_tools[]`：OpenAI 函数调用定义（name、description、' +
      'JSON Schema 形式的 `parameters`），以及执行时使用的 `api_url`、`fixed_params` 和 `headers`。' +
      '它位于调用链末端——在 kn_schema_search/kn_search 找到行动类（at_id）、query_object_instance 找到实例标识之后，' +
      '当用户想要做某件事（如开处方）时使用。它只描述行动，从不执行；空列表表示该行动没有可执行的来源。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
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
    actions.getActionInfo({
      kn_id: context.knId,
      at_id: input.at_id,
      _instance_identity: input._instance_identity,
      _instance_identities: input._instance_identities,
    }),
});
