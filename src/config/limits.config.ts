import { EnvInt } from './env.decorators';
import { defineNamespace } from './config.loader';

/**
 * What one request may ask for (SPEC §4 "Limits"). Each is checked before expensive work starts and
 * answered with a 400 naming the field and the limit, over REST and MCP alike.
 */
class LimitsEnv {
  @EnvInt(2, 1000) MAX_JSON_DEPTH = 64;
  @EnvInt(1, 1000000) MAX_ARRAY_ITEMS = 10000;
  @EnvInt(1, 100000) MAX_TEXT_LENGTH = 2000;
  @EnvInt(1, 1000) MAX_SEARCH_TERMS = 32;
  @EnvInt(1, 64) MAX_CONDITION_DEPTH = 10;
  @EnvInt(1, 10000) MAX_CONDITION_NODES = 256;
  @EnvInt(1, 100000) MAX_IN_LIST = 10000;
  @EnvInt(1, 1000) MAX_SUBGRAPH_PATHS = 20;
  @EnvInt(1, 32) MAX_SUBGRAPH_HOPS = 8;
  @EnvInt(1, 100000) MAX_INSTANCE_IDENTITIES = 1000;
}

export const limitsNamespace = defineNamespace('limits', LimitsEnv, (env) => ({
  json: { depth: env.MAX_JSON_DEPTH, items: env.MAX_ARRAY_ITEMS },
  textLength: env.MAX_TEXT_LENGTH,
  searchTerms: env.MAX_SEARCH_TERMS,
  conditionDepth: env.MAX_CONDITION_DEPTH,
  conditionNodes: env.MAX_CONDITION_NODES,
  inList: env.MAX_IN_LIST,
  subgraphPaths: env.MAX_SUBGRAPH_PATHS,
  subgraphHops: env.MAX_SUBGRAPH_HOPS,
  instanceIdentities: env.MAX_INSTANCE_IDENTITIES,
}));
export type LimitsConfig = ReturnType<typeof limitsNamespace.map>;
