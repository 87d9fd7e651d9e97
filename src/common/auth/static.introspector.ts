import { timingSafeEqual } from 'node:crypto';
import { StaticToken } from '../../config/auth.config';
import { INACTIVE, TokenInfo, TokenIntrospector } from './token-introspector.port';

/** Fixed tokens from configuration (AUTH_MODE=static), for small deployments and demos. */
export class StaticIntrospector extends TokenIntrospector {
  constructor(private readonly tokens: StaticToken[]) {
    super();
  }

  introspect(token: string): Promise<TokenInfo> {
    const presented = Buffer.from(token);
    const match = this.tokens.find((entry) => {
      const known = Buffer.from(entry.token);
      return known.length === presented.length && timingSafeEqual(known, presented);
    });
    if (!match) return Promise.resolve(INACTIVE);
    return Promise.resolve({ active: true, accountId: match.accountId, accountType: match.accountType });
  }
}
