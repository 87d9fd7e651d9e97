import { EnvString, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

/** Who may see and call what (SPEC §12): the access policy every door applies. */
class GovernanceEnv {
  /** A JSON file path or inline JSON: account type → {networks, allow, deny, auto}; unset = the default policy. */
  @Describe('The [access policy](security.md#access-policy): JSON file path or inline JSON; unset → the default policy')
  @EnvString({ optional: true })
  ACCESS_POLICY?: string;
  /** Deprecated: the chat-only policy, the same shape without `networks`; read when ACCESS_POLICY is unset. */
  @Describe('Deprecated: the former chat tool policy, read as `ACCESS_POLICY` without `networks` when that is unset')
  @EnvString({ optional: true })
  CHAT_TOOL_POLICY?: string;
  @Describe(
    "Account types whose `recent_audit` shows every account's lines (comma-separated); others see only their own",
  )
  @EnvString({ optional: true })
  AUDIT_ADMIN_ACCOUNT_TYPES?: string;
}

export const governanceNamespace = defineNamespace('governance', GovernanceEnv, (env) => ({
  accessPolicy: env.ACCESS_POLICY,
  chatToolPolicy: env.CHAT_TOOL_POLICY,
  auditAdminAccountTypes: (env.AUDIT_ADMIN_ACCOUNT_TYPES ?? '')
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type !== ''),
}));
export type GovernanceConfig = ReturnType<typeof governanceNamespace.map>;
