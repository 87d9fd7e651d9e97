import { InstanceIdentity } from '../knowledge-network/knowledge-network.types';

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
