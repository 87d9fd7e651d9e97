import { loadNamespace, ConfigError } from './config.loader';
import { authNamespace, AuthConfig } from './auth.config';
import { chatNamespace, ChatConfig } from './chat.config';
import { ckbNamespace, CkbConfig } from './ckb.config';
import { governanceNamespace, GovernanceConfig } from './governance.config';
import { i18nNamespace, I18nConfig } from './i18n.config';
import { kbNamespace, KbConfig } from './kb.config';
import { knNamespace, KnConfig } from './kn.config';
import { limitsNamespace, LimitsConfig } from './limits.config';
import { mcpNamespace, McpConfig } from './mcp.config';
import { metricsNamespace, MetricsConfig, rateLimitNamespace, RateLimitConfig } from './metrics.config';
import { redisNamespace, RedisConfig } from './redis.config';
import { serverNamespace, ServerConfig } from './server.config';
import { tracingNamespace, TracingConfig } from './tracing.config';
import { upstreamNamespace, UpstreamConfig } from './upstream.config';
import { operatorsNamespace, OperatorsConfig } from './operators.config';
import { workersNamespace, WorkersConfig } from './workers.config';

export * from './config.loader';
export type {
  AuthConfig,
  ChatConfig,
  CkbConfig,
  GovernanceConfig,
  I18nConfig,
  KbConfig,
  KnConfig,
  LimitsConfig,
  McpConfig,
  MetricsConfig,
  OperatorsConfig,
  RateLimitConfig,
  RedisConfig,
  ServerConfig,
  TracingConfig,
  UpstreamConfig,
  WorkersConfig,
};

/** Every configuration area; add a namespace here and it is validated at boot and injectable. */
export const NAMESPACES = {
  server: serverNamespace,
  limits: limitsNamespace,
  auth: authNamespace,
  governance: governanceNamespace,
  kn: knNamespace,
  kb: kbNamespace,
  chat: chatNamespace,
  upstream: upstreamNamespace,
  i18n: i18nNamespace,
  metrics: metricsNamespace,
  rateLimit: rateLimitNamespace,
  operators: operatorsNamespace,
  mcp: mcpNamespace,
  ckb: ckbNamespace,
  redis: redisNamespace,
  workers: workersNamespace,
  tracing: tracingNamespace,
} as const;

export type AppConfig = {
  [K in keyof typeof NAMESPACES]: ReturnType<(typeof NAMESPACES)[K]['map']>;
};

/** Validates every namespace and reports all problems at once, one line per variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const problems: string[] = [];
  const config: Partial<Record<string, unknown>> = {};
  for (const [key, namespace] of Object.entries(NAMESPACES)) {
    try {
      config[key] = loadNamespace(namespace as never, env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const checked = config as AppConfig;
  const crossProblems = [...crossCheck(checked), ...privateListenerProblems(checked.server, checked.auth)];
  if (crossProblems.length > 0) throw new ConfigError(crossProblems);
  // Action recall hands out URLs of the private prefix: by default they name the listener that serves it.
  if (env.ACTION_PROXY_BASE_URL === undefined && checked.server.privateListener?.port) {
    checked.operators.actionProxyBaseUrl = `http://agent-retrieval:${checked.server.privateListener.port}`;
  }
  return checked;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Rules that span variables: each problem still names the variable to change. */
function crossCheck(config: AppConfig): string[] {
  const problems: string[] = [];
  const { auth, server } = config;
  if (auth.mode === 'introspect' && !auth.introspectUrl) {
    problems.push('Invalid configuration: INTROSPECT_URL is required when AUTH_MODE=introspect');
  }
  if (auth.mode === 'static' && auth.staticTokens.length === 0) {
    problems.push('Invalid configuration: AUTH_STATIC_TOKENS is required when AUTH_MODE=static');
  }
  // Like an introspected `sub`, a static token must name an account; the entry is told by position (tokens are secret).
  auth.staticTokens.forEach((entry, index) => {
    if (entry.token === '' || entry.accountId === '') {
      problems.push(
        `Invalid configuration: AUTH_STATIC_TOKENS entry ${index + 1} must look like token=account_id[:account_type]`,
      );
    }
  });
  if (auth.mode === 'none' && !isLoopbackHost(server.host) && !auth.allowInsecure) {
    problems.push(
      `Invalid configuration: AUTH_MODE=none is refused on HOST=${server.host}; bind to 127.0.0.1 or set AUTH_ALLOW_INSECURE=true`,
    );
  }
  if (config.kb.backend === 'weknora' && !config.kb.weknora.baseUrl) {
    problems.push('Invalid configuration: WEKNORA_BASE_URL is required when KB_BACKEND=weknora');
  }
  return problems;
}

/**
 * The private prefix trusts x-account-* headers (SPEC §5), so it must not be reachable by whoever reaches
 * the public port: with real authentication on a non-loopback HOST it needs PRIVATE_PORT, or an explicit
 * PRIVATE_ON_PUBLIC_PORT=true.
 */
function privateListenerProblems(server: ServerConfig, auth: AuthConfig): string[] {
  const problems: string[] = [];
  const { privateListener } = server;
  if (!privateListener) {
    if (server.privateHostSet) {
      problems.push('Invalid configuration: PRIVATE_HOST is set but PRIVATE_PORT is not; set PRIVATE_PORT too');
    }
    if (auth.mode !== 'none' && !isLoopbackHost(server.host) && !server.privateOnPublicPort) {
      problems.push(
        `Invalid configuration: AUTH_MODE=${auth.mode} on HOST=${server.host} would serve the private prefix ` +
          '(which trusts x-account-id) on the public port; set PRIVATE_PORT (and admit only the platform to it), ' +
          'or PRIVATE_ON_PUBLIC_PORT=true to accept that risk',
      );
    }
    return problems;
  }
  if (server.privateOnPublicPort) {
    problems.push('Invalid configuration: PRIVATE_ON_PUBLIC_PORT=true contradicts PRIVATE_PORT; set one of them');
  }
  if (privateListener.port !== 0 && privateListener.port === server.port) {
    problems.push(`Invalid configuration: PRIVATE_PORT must differ from PORT (both ${server.port})`);
  }
  return problems;
}

/** Injection token for one namespace's typed value: `@Inject(configToken('auth')) auth: AuthConfig`. */
export function configToken(name: keyof AppConfig): string {
  return `AppConfig.${name}`;
}
