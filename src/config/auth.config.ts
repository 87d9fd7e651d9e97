import { EnvBool, EnvEnum, EnvInt, EnvString, EnvUrl, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

export const AUTH_MODES = ['none', 'introspect', 'static'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

class AuthEnv {
  @Describe('`none` (loopback only), `introspect` (RFC 7662) or `static`')
  @EnvEnum(AUTH_MODES)
  AUTH_MODE: AuthMode = 'none';
  @Describe('Allow `AUTH_MODE=none` on a non-loopback bind')
  @EnvBool()
  AUTH_ALLOW_INSECURE = false;
  @Describe(
    'Token introspection endpoint, e.g. `http://hydra-admin:4445/admin/oauth2/introspect` (required for `introspect`)',
  )
  @EnvUrl({ optional: true })
  INTROSPECT_URL?: string;
  @Describe('Deadline for one introspection call')
  @EnvInt(100, 60000)
  INTROSPECT_TIMEOUT_MS = 3000;
  @Describe('Longest an active token is cached (never past its `exp`; at most 60)')
  @EnvInt(0, 60)
  AUTH_CACHE_TTL_S = 60;
  @Describe('Cached tokens (LRU)')
  @EnvInt(1, 1000000)
  AUTH_CACHE_MAX = 10000;
  @Describe('How long an inactive answer is cached')
  @EnvInt(0, 60)
  AUTH_NEGATIVE_CACHE_S = 5;
  /** `token=account_id:account_type` pairs, comma separated (AUTH_MODE=static). */
  @Describe('For `static`: `token=account_id:account_type` pairs, comma separated')
  @EnvString({ optional: true })
  AUTH_STATIC_TOKENS?: string;
  /** Authorization server advertised in OAuth protected-resource metadata. */
  @Describe('Authorization server listed in the MCP protected-resource metadata')
  @EnvUrl({ optional: true })
  AUTH_ISSUER_URL?: string;
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
