import { InstanceIdentity } from '../knowledge-network/knowledge-network.types';

/** find_skills request (upstream-contracts §2.10); `instance_identities` has no leading underscore. */
export interface FindSkillsRequest {
  kn_id: string;
  object_type_id: string;
  instance_identities?: InstanceIdentity[];
  skill_query?: string;
  top_k?: number;
}

export interface SkillEntry {
  skill_id: string;
  name: string;
  description?: string;
}

/** `message` (the i18n `find_skills.*` text) is present only when `entries` is empty. */
export interface FindSkillsResponse {
  entries: SkillEntry[];
  message?: string;
}

/** The keys of `i18n/<lang>/find_skills.json`: why a find_skills answer is empty. */
export type FindSkillsEmptyReason =
  | 'network_scope_too_wide'
  | 'network_no_skills'
  | 'object_type_no_binding'
  | 'object_type_no_match'
  | 'instance_no_match'
  | 'skill_query_no_match';
