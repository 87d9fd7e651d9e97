/** Who is calling: filled by the public guard from the token, or by the private guard from headers. */
export interface AccountContext {
  id: string;
  type: string;
  /** Set when the caller authenticated with an API key: its id (never its secret), for audit lines. */
  keyId?: string;
}

export const ANONYMOUS: AccountContext = { id: '', type: 'anonymous' };

/** Hydra visitor types mapped to the account types upstreams expect (SPEC §5). */
export function accountTypeFromVisitor(visitorType: string | undefined, sub?: string, clientId?: string): string {
  if (sub && clientId && sub === clientId) return 'app';
  switch (visitorType) {
    case 'realname':
      return 'user';
    case 'business':
      return 'app';
    default:
      return 'anonymous';
  }
}
