import { EnvBool, EnvEnum, EnvInt, EnvString, EnvUrl, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

export const RERANK_MODES = ['off', 'shadow', 'on'] as const;
export type RerankMode = (typeof RERANK_MODES)[number];

export const KN_BACKENDS = ['embedded', 'kweaver'] as const;
export type KnBackend = (typeof KN_BACKENDS)[number];
export const INDEX_VERIFY_MODES = ['changed', 'always'] as const;
export type IndexVerify = (typeof INDEX_VERIFY_MODES)[number];

class KnEnv {
  @Describe('`embedded` (BKN folders + CSV) or `kweaver` (KWeaver ontology-query and bkn-backend)')
  @EnvEnum(KN_BACKENDS)
  KN_BACKEND: KnBackend = 'embedded';
  @Describe('folder of network folders, relative to the project root unless absolute')
  @EnvString()
  KN_DIR = 'examples/networks';
  @Describe('`true`: a malformed network stops start-up instead of being skipped')
  @EnvBool()
  KN_STRICT = false;
  @Describe(
    "where each network's index file is written once and opened by every later start (relative to the project root unless absolute); an unwritable folder means in-memory indexes, with a warning",
  )
  @EnvString()
  INDEX_DIR = 'data/indexes';
  @Describe(
    '`true`: only open index files already in `INDEX_DIR`, never build one (replicas that mount indexes built by `npm run index`)',
  )
  @EnvBool()
  INDEX_READ_ONLY = false;
  @Describe(
    "`changed`: an index file's sha256 is checked when it is first opened and again only when its size, inode, modification or change time differ from those recorded then; `always`: at every start (reads the whole file)",
  )
  @EnvEnum(INDEX_VERIFY_MODES)
  INDEX_VERIFY: IndexVerify = 'changed';
  @Describe(
    'resident MB of memory-mapped index files a process keeps, all worker threads together: above it, each worker unmaps its index files after its current query (the pages stay in the shared OS page cache); `0` reads index files without memory-mapping them',
  )
  @EnvInt(0, 1048576)
  INDEX_MAPPED_MB = 512;
  @Describe(
    're-index a network folder in the background when its files change, and swap the new index in; load a folder added to `KN_DIR`, unload one removed',
  )
  @EnvBool()
  KN_WATCH = true;
  /** Scored-search results kept per network (the embedded store is immutable once loaded); 0 = off. */
  @Describe(
    'relevance-ranked search results kept per network (the embedded store is immutable once loaded); `0` turns the cache off',
  )
  @EnvInt(0, 1000000)
  KN_QUERY_CACHE_SIZE = 2000;
  /** The object type whose instances are the skills `find_skills` recalls. */
  @Describe(
    'the object type whose instances `find_skills` recalls (it must have the data properties `skill_id` and `name`)',
  )
  @EnvString()
  FIND_SKILLS_OBJECT_TYPE = 'skills';
  @Describe('OpenAI-compatible base URL (`POST {url}/v1/embeddings`); enables hybrid search and `knn`')
  @EnvUrl({ optional: true })
  EMBEDDING_URL?: string;
  @Describe('embedding model name')
  @EnvString()
  EMBEDDING_MODEL = 'text-embedding-3-small';
  @Describe('bearer token for the embeddings endpoint (never logged)')
  @EnvString({ optional: true })
  EMBEDDING_API_KEY?: string;
  @Describe(
    "with `EMBEDDING_URL`: the vector channel's share, in percent, of the fused instance and concept ranking (reciprocal-rank fusion, k=60); `50` weighs keyword and vector ranks alike, `0` ranks by keywords alone, `100` by vectors alone",
  )
  @EnvInt(0, 100)
  HYBRID_VECTOR_WEIGHT = 50;
  @Describe(
    'cross-encoder rerank of knowledge-network recall through `RERANK_URL`: `off`, `shadow` (scores and logs agreement, never changes results) or `on` (reorders the top `RERANK_TOP_N`)',
  )
  @EnvEnum(RERANK_MODES)
  RERANK_MODE: RerankMode = 'off';
  @Describe('how many of the best instances or concepts of a recall the cross-encoder rescores')
  @EnvInt(2, 200)
  RERANK_TOP_N = 50;
  @Describe(
    'deadline (ms) of each query-time call to the embeddings and rerank endpoints; past it the request goes on without that channel',
  )
  @EnvInt(100, 60000)
  RETRIEVAL_TIMEOUT_MS = 5000;
}

export const knNamespace = defineNamespace('kn', KnEnv, (env) => ({
  backend: env.KN_BACKEND,
  dir: env.KN_DIR,
  strict: env.KN_STRICT,
  indexDir: env.INDEX_DIR,
  indexReadOnly: env.INDEX_READ_ONLY,
  indexVerify: env.INDEX_VERIFY,
  indexMappedBytes: env.INDEX_MAPPED_MB * 1024 * 1024,
  watch: env.KN_WATCH,
  queryCacheSize: env.KN_QUERY_CACHE_SIZE,
  skillsObjectType: env.FIND_SKILLS_OBJECT_TYPE.trim(),
  embedding: env.EMBEDDING_URL
    ? { url: env.EMBEDDING_URL, model: env.EMBEDDING_MODEL, apiKey: env.EMBEDDING_API_KEY }
    : undefined,
  hybrid: {
    vectorWeight: env.HYBRID_VECTOR_WEIGHT / 100,
    rerankMode: env.RERANK_MODE,
    rerankTopN: env.RERANK_TOP_N,
    timeoutMs: env.RETRIEVAL_TIMEOUT_MS,
  },
}));
export type KnConfig = ReturnType<typeof knNamespace.map>;
