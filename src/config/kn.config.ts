import { EnvBool, EnvEnum, EnvInt, EnvString, EnvUrl, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

export const KN_BACKENDS = ['embedded', 'kweaver'] as const;
export type KnBackend = (typeof KN_BACKENDS)[number];

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
}

export const knNamespace = defineNamespace('kn', KnEnv, (env) => ({
  backend: env.KN_BACKEND,
  dir: env.KN_DIR,
  strict: env.KN_STRICT,
  indexDir: env.INDEX_DIR,
  indexReadOnly: env.INDEX_READ_ONLY,
  watch: env.KN_WATCH,
  queryCacheSize: env.KN_QUERY_CACHE_SIZE,
  skillsObjectType: env.FIND_SKILLS_OBJECT_TYPE.trim(),
  embedding: env.EMBEDDING_URL
    ? { url: env.EMBEDDING_URL, model: env.EMBEDDING_MODEL, apiKey: env.EMBEDDING_API_KEY }
    : undefined,
}));
export type KnConfig = ReturnType<typeof knNamespace.map>;
