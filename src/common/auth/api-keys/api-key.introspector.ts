import { AuthorityAdmission, TokenInfo, TokenIntrospector } from '../token-introspector.port';
import { API_KEY_PREFIX } from './api-key-format';
import { ApiKeyVerifier } from './api-key.verifier';

/**
 * Puts API keys in front of the configured introspector: a token starting with `ar_` is answered by the
 * key store alone (a malformed one is inactive, and is never sent to the OAuth server or its cache);
 * every other token goes to the introspector it wraps, unchanged. A key lookup asks no admission: it is
 * this service's own store, read by key id, like the static tokens' check.
 */
export class ApiKeyIntrospector extends TokenIntrospector {
  constructor(
    private readonly keys: ApiKeyVerifier,
    private readonly inner: TokenIntrospector,
  ) {
    super();
  }

  introspect(token: string, admit?: AuthorityAdmission): Promise<TokenInfo> {
    if (token.startsWith(API_KEY_PREFIX)) return this.keys.verify(token);
    return this.inner.introspect(token, admit);
  }
}
