import { EnvBool, EnvEnum, EnvInt, EnvString, EnvUrl } from './env.decorators';
import { defineNamespace } from './config.loader';

export const AUTH_MODES = ['none', 'introspect', 'static'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

class AuthEnv {
  @EnvEnum(AUTH_MODES) AUTH_MODE: AuthMode = 'none';
  @EnvBool() AUTH_ALLOW_INSECURE = false;
  @EnvUrl({ optional: true }) INTROSPECT_URL?: string;
  @EnvInt(100, 60000) INTROSPECT_TIMEOUT_MS = 3000;
  @EnvInt(0, 60) AUTH_CACHE_TTL_S = 60;
  @EnvInt(1, 1000000) AUTH_CACHE_MAX = 10000;
  @EnvInt(0, 60) AUTH_NEGATIVE_CACHE_S = 5;
  /** `token=account_id:account_type` pairs, comma separated (AUTH_MODE=static). */
  @EnvString({ optional: true }) AUTH_STATIC_TOKENS?: string;
  /** Authorization server advertised in OAuth protected-resource metadata. */
  @EnvUrl({ optional: true }) AUTH_ISSUER_URL?: string;
}

export interface StaticToken {
  token: string;
  accountId: string;
  accountType: string;
}

function parseStaticTokens(raw: string | undefined): StaticToken[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [token, account = ''] = entry.split('=');
      const [accountId = '', accountType = 'user'] = account.split(':');
      return { token: token.trim(), accountId: accountId.trim(), accountType: accountType.trim() };
    });
}

export const authNamespace = defineNamespace('auth', AuthEnv, (env) => ({
  mode: env.AUTH_MODE,
  allowInsecure: env.AUTH_ALLOW_INSECURE,
  introspectUrl: env.INTROSPECT_URL,
  introspectTimeoutMs: env.INTROSPECT_TIMEOUT_MS,
  cacheTtlSeconds: env.AUTH_CACHE_TTL_S,
  cacheMax: env.AUTH_CACHE_MAX,
  negativeCacheSeconds: env.AUTH_NEGATIVE_CACHE_S,
  staticTokens: parseStaticTokens(env.AUTH_STATIC_TOKENS),
  issuerUrl: env.AUTH_ISSUER_URL,
}));
export type AuthConfig = ReturnType<typeof authNamespace.map>;
