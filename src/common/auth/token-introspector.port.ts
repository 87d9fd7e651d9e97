/** The outcome of checking a bearer token. */
export interface TokenInfo {
  active: boolean;
  accountId: string;
  accountType: string;
  /** Expiry as epoch seconds, when the authority reports one. */
  expiresAt?: number;
  /** The API key's id when the token was an API key (`ar_<key id>_<secret>`), for audit lines; never the secret. */
  keyId?: string;
}

/**
 * Asked before the authority is called about a token nobody has an answer for yet; it may refuse the
 * call by throwing (the caller's rate limit, say), and the introspection then ends with that error.
 */
export type AuthorityAdmission = () => Promise<void>;

/** Port for token verification; adapters: RFC 7662 introspection (Hydra), static tokens and API keys. */
export abstract class TokenIntrospector {
  /**
   * Resolves the token, or throws AppException(IntrospectionUnavailable) when the authority cannot answer.
   * `admit` is called once before a call to a remote authority; an answer from a cache, or a check made in
   * process (static tokens), calls nobody and asks nothing.
   */
  abstract introspect(token: string, admit?: AuthorityAdmission): Promise<TokenInfo>;
}

export const INACTIVE: TokenInfo = { active: false, accountId: '', accountType: 'anonymous' };
