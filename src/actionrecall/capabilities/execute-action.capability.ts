import { z } from 'zod';
import { defineCapability, DESTRUCTIVE } from '../../capabilities/capability';
import { INSTANCE_IDENTITY } from '../../knowledge-network/knowledge-network.schemas';
import { ActionExecutionService } from '../action-execution.service';

const JSON_OBJECT = z.record(z.string(), z.unknown());

const OUTPUT = z.looseObject({
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

/**
 * `execute_action`: the only way an action's tool runs (SPEC §10, §12) — fixed values merged, arguments
 * validated, the action type's enabled flag, trigger condition, pre-conditions and approval enforced.
 */
export const EXECUTE_ACTION = defineCapability({
  name: 'execute_action',
  title: { 'en-US': 'Execute an action', 'zh-Hans': '执行行动' },
  description: {
    'en-US':
      'Execute an action type for one instance — the step after get_action_info, once the user wants it done. ' +
      "Runs the action's bound tool (an MCP tool or a toolbox HTTP operation) with the knowledge network's fixed " +
      'values merged over `arguments` (fixed values win), after validating the merged arguments against the ' +
      "action's parameters schema. Returns `{at_id, kn_id, action{name, action_type, risk_level, source}, " +
      '_instance_identity, arguments (as sent), fixed_arguments{applied, overridden}, outcome (ok | tool_error), ' +
      "result}` where result is the tool's own answer (MCP `{content, isError, structuredContent}` or toolbox " +
      '`{status_code, headers, body}`). Refused with isError, naming why, when the action is disabled, when an ' +
      'argument is invalid (each field listed), when its trigger condition or a pre-condition does not hold for ' +
      'the instance, or when it requires approval and `confirm` is not true: then show the user the action and ' +
      'its arguments and call again with confirm: true only after they approve. This changes real systems.',
    'zh-Hans':
      '为一个实例执行行动类——在 get_action_info 之后、用户确实要执行时使用。先把知识网络的固定值合并到 `arguments` 之上' +
      '（固定值优先），按行动的参数模式校验合并后的参数，再运行行动绑定的工具（MCP 工具或工具箱 HTTP 操作）。返回 ' +
      '`{at_id, kn_id, action{name, action_type, risk_level, source}, _instance_identity, arguments（实际发送的参数）, ' +
      'fixed_arguments{applied, overridden}, outcome（ok | tool_error）, result}`，其中 result 是工具自身的回答' +
      '（MCP 的 `{content, isError, structuredContent}` 或工具箱的 `{status_code, headers, body}`）。以下情况会以 isError ' +
      '拒绝并说明原因：行动已停用、参数无效（逐项列出）、实例不满足触发条件或前置条件、行动需要审批而 `confirm` 不为 true——' +
      '此时先向用户展示行动及其参数，只有在用户批准后才带 confirm: true 再次调用。它会改变真实系统。',
  },
  governance: 'act',
  annotations: DESTRUCTIVE,
  network: 'required',
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
