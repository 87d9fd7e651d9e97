import { EnvEnum, EnvInt, EnvString, EnvUrl, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

export const KB_BACKENDS = ['embedded', 'weknora'] as const;
export type KbBackend = (typeof KB_BACKENDS)[number];
/** The knowledge-search request sent: WeKnora's own (v0.7, `query`) or seed 003 §6.1's (`question`, …). */
export const WEKNORA_API_SHAPES = ['weknora', 'seed'] as const;
export type WeKnoraApiShape = (typeof WEKNORA_API_SHAPES)[number];

/**
 * Knowledge-base search (SPEC §9): a local documents folder, or WeKnora. The WeKnora base URL is
 * server config only; the credential and knowledge-base ids may also come from the connection.
 */
class KbEnv {
  @Describe('`embedded` (documents folder) or `weknora`')
  @EnvEnum(KB_BACKENDS)
  KB_BACKEND: KbBackend = 'embedded';
  @Describe('Documents folder of the embedded backend (relative to the project root)')
  @EnvString()
  DOCS_DIR = 'examples/docs';
  @Describe('WeKnora server, e.g. `http://weknora:8080` (required with `KB_BACKEND=weknora`)')
  @EnvUrl({ optional: true })
  WEKNORA_BASE_URL?: string;
  @Describe('Credential used when the connection sends no `X-WeKnora-Api-Key`')
  @EnvString({ optional: true })
  WEKNORA_API_KEY?: string;
  /** Comma-separated; empty = every knowledge base the credential can see. */
  @Describe('Comma-separated knowledge bases searched when the connection sends no `X-WeKnora-KB-IDs`; empty = all')
  @EnvString({ optional: true })
  WEKNORA_KB_IDS?: string;
  @Describe('Sent as `X-Tenant-ID`')
  @EnvString({ optional: true })
  WEKNORA_TENANT_ID?: string;
  @Describe('Deadline of every WeKnora call')
  @EnvInt(100, 600000)
  WEKNORA_TIMEOUT_MS = 10000;
  @Describe(
    'Request sent to `knowledge-search`: `weknora` (`query`; WeKnora v0.7) or `seed` (`question` with `search_mode`, `top_k`, `min_score`, `rerank`; the earlier knowledge-search contract); answers are accepted in either shape',
  )
  @EnvEnum(WEKNORA_API_SHAPES)
  WEKNORA_API_SHAPE: WeKnoraApiShape = 'weknora';
  /** Seconds a search answer is reused for the same query, mode, bounds, KB set and credential; 0 = off. */
  @Describe('Seconds a search answer is reused (same arguments, scope and credential); `0` = off')
  @EnvInt(0, 86400)
  KB_CACHE_TTL_S = 0;
  @Describe('Answers kept by that cache')
  @EnvInt(1, 100000)
  KB_CACHE_SIZE = 1000;
  /** Optional rerank endpoint (`POST {url}/v1/rerank`, Jina/Cohere style) for the embedded backend. */
  @Describe(
    'Rerank endpoint (`POST {url}/v1/rerank`, Jina/Cohere shape): reranks embedded knowledge-base passages, and knowledge-network recall when `RERANK_MODE` is `shadow` or `on`',
  )
  @EnvUrl({ optional: true })
  RERANK_URL?: string;
  @Describe('Model named in rerank calls')
  @EnvString()
  RERANK_MODEL = 'bge-reranker-v2-m3';
  @Describe('Bearer key of the rerank endpoint')
  @EnvString({ optional: true })
  RERANK_API_KEY?: string;
}

/** Comma-separated ids, trimmed, empty entries dropped, duplicates removed. */
export function parseIdList(value: string | undefined): string[] {
  return [
    ...new Set(
      (value ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
}

export const kbNamespace = defineNamespace('kb', KbEnv, (env) => ({
  backend: env.KB_BACKEND,
  docsDir: env.DOCS_DIR,
  weknora: {
    baseUrl: env.WEKNORA_BASE_URL?.replace(/\/+$/, ''),
    apiKey: env.WEKNORA_API_KEY,
    kbIds: parseIdList(env.WEKNORA_KB_IDS),
    tenantId: env.WEKNORA_TENANT_ID,
    timeoutMs: env.WEKNORA_TIMEOUT_MS,
    apiShape: env.WEKNORA_API_SHAPE,
  },
  cache: { ttlSeconds: env.KB_CACHE_TTL_S, size: env.KB_CACHE_SIZE },
  rerank: env.RERANK_URL ? { url: env.RERANK_URL, model: env.RERANK_MODEL, apiKey: env.RERANK_API_KEY } : undefined,
}));
export type KbConfig = ReturnType<typeof kbNamespace.map>;
