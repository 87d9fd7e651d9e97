import type { Language } from '../config/i18n.config';
import type { HumanChannel } from './action-approval';
import { ActionSource, ActionType, InstanceIdentity } from '../knowledge-network/knowledge-network.types';
import type { ToolboxProxyResponse } from '../mcpproxy/toolbox-proxy.service';
import { McpToolResult, ToolApiSpec } from '../operators/operator.types';
import { FixedArguments } from './action-arguments';

export interface GetActionInfoRequest {
  kn_id: string;
  at_id: string;
  _instance_identity?: InstanceIdentity;
  _instance_identities?: InstanceIdentity[];
}

/** One recalled action as an OpenAI function-call definition plus how to call it (SPEC §6). */
export interface DynamicTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  api_url: string;
  original_schema?: Record<string, unknown>;
  fixed_params: Record<string, unknown>;
  api_call_strategy: 'kn_action_recall';
}

export interface GetActionInfoResponse {
  headers: Record<string, string>;
  _dynamic_tools: DynamicTool[];
}

/** The action type's source and its first bound action for the given instances (absent: nothing to run). */
export interface ActionBinding {
  actionType?: ActionType;
  source?: ActionSource;
  action?: { parameters: Record<string, unknown>; identity?: InstanceIdentity };
}

/** Where a recalled action runs: an MCP server's tool or a toolbox tool (an OpenAPI operation). */
export type ActionTarget =
  | { kind: 'mcp'; mcpId: string; toolName: string }
  | { kind: 'tool'; boxId: string; toolId: string; apiSpec: ToolApiSpec };

/** A bound action turned into the function-call definition get_action_info answers, plus its target. */
export interface RecalledAction {
  tool: DynamicTool;
  target: ActionTarget;
}

export interface ExecuteActionRequest {
  kn_id: string;
  at_id: string;
  /** The one instance the action runs for (primary-key property → value). */
  _instance_identity: InstanceIdentity;
  /** The caller's input arguments: flat, or layered `{header, path, query, body}` for a toolbox tool. */
  arguments?: Record<string, unknown>;
  /** The user approved this execution (needed when the action requires approval or its risk is high). */
  confirm?: boolean;
  /** The door's way to ask the human; when present, `confirm` is ignored and the human decides. */
  human?: HumanChannel;
  /** The language the approval question is asked in. */
  language?: Language;
}

/** What execute_action answers once the tool ran (SPEC §7, README "Executing an action"). */
export interface ExecuteActionResponse {
  at_id: string;
  kn_id: string;
  action: {
    name: string;
    action_type?: string;
    risk_level?: string;
    source: ActionSource;
  };
  _instance_identity: InstanceIdentity;
  /** The arguments sent: flat for an MCP tool, `{header, path, query, body}` for a toolbox tool. */
  arguments: Record<string, unknown>;
  fixed_arguments: FixedArguments;
  /** `tool_error`: the tool ran and reported a failure (MCP `isError`, or an HTTP status of 400 or more). */
  outcome: 'ok' | 'tool_error';
  /** The tool's own answer: MCP `{content, isError?, structuredContent?}`, toolbox `{status_code, headers, body}`. */
  result: McpToolResult | ToolboxProxyResponse;
}
