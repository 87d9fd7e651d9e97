import { EnvBool, EnvEnum, EnvString, EnvUrl } from './env.decorators';
import { defineNamespace } from './config.loader';

export const KN_BACKENDS = ['embedded', 'kweaver'] as const;
export type KnBackend = (typeof KN_BACKENDS)[number];

class KnEnv {
  @EnvEnum(KN_BACKENDS) KN_BACKEND: KnBackend = 'embedded';
  @EnvString() KN_DIR = 'examples/networks';
  @EnvBool() KN_STRICT = false;
  @EnvUrl({ optional: true }) EMBEDDING_URL?: string;
  @EnvString() EMBEDDING_MODEL = 'text-embedding-3-small';
  @EnvString({ optional: true }) EMBEDDING_API_KEY?: string;
}

export const knNamespace = defineNamespace('kn', KnEnv, (env) => ({
  backend: env.KN_BACKEND,
  dir: env.KN_DIR,
  strict: env.KN_STRICT,
  embedding: env.EMBEDDING_URL
    ? { url: env.EMBEDDING_URL, model: env.EMBEDDING_MODEL, apiKey: env.EMBEDDING_API_KEY }
    : undefined,
}));
export type KnConfig = ReturnType<typeof knNamespace.map>;
