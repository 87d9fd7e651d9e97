/** The outcome of checking a bearer token. */
export interface TokenInfo {
  active: boolean;
  accountId: string;
  accountType: string;
  /** Expiry as epoch seconds, when the authority reports one. */
  expiresAt?: number;
}

/** Port for token verification; adapters: RFC 7662 introspection (Hydra) and static tokens. */
export abstract class TokenIntrospector {
  /** Resolves the token, or throws AppException(IntrospectionUnavailable) when the authority cannot answer. */
  abstract introspect(token: string): Promise<TokenInfo>;
}

export const INACTIVE: TokenInfo = { active: false, accountId: '', accountType: 'anonymous' };
