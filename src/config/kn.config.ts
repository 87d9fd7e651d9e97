import { EnvBool, EnvEnum, EnvInt, EnvString, EnvUrl } from './env.decorators';
import { defineNamespace } from './config.loader';

export const KN_BACKENDS = ['embedded', 'kweaver'] as const;
export type KnBackend = (typeof KN_BACKENDS)[number];

class KnEnv {
  @EnvEnum(KN_BACKENDS) KN_BACKEND: KnBackend = 'embedded';
  @EnvString() KN_DIR = 'examples/networks';
  @EnvBool() KN_STRICT = false;
  /** Where each network's index file is written and opened (relative paths are from the project root). */
  @EnvString() INDEX_DIR = 'data/indexes';
  /** Open index files only, never build one (replicas that mount INDEX_DIR read-only). */
  @EnvBool() INDEX_READ_ONLY = false;
  /** Re-index a network folder in the background when its files change. */
  @EnvBool() KN_WATCH = true;
  /** Scored-search results kept per network (the embedded store is immutable once loaded); 0 = off. */
  @EnvInt(0, 1000000) KN_QUERY_CACHE_SIZE = 2000;
  /** The object type whose instances are the skills `find_skills` recalls. */
  @EnvString() FIND_SKILLS_OBJECT_TYPE = 'skills';
  @EnvUrl({ optional: true }) EMBEDDING_URL?: string;
  @EnvString() EMBEDDING_MODEL = 'text-embedding-3-small';
  @EnvString({ optional: true }) EMBEDDING_API_KEY?: string;
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
