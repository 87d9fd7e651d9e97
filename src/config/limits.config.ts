import { EnvInt, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

/**
 * What one request may ask for (SPEC §4 "Limits"). Each is checked before expensive work starts and
 * answered with a 400 naming the field and the limit, over REST and MCP alike.
 */
class LimitsEnv {
  @Describe(
    "Nesting of a JSON body (the root is level 1) and of an MCP tool's arguments; checked before any validation, so a 10,000-level body costs a few milliseconds",
  )
  @EnvInt(2, 1000)
  MAX_JSON_DEPTH = 64;
  @Describe(
    "Elements of any one JSON array in a body or in an MCP tool's arguments; checked before any validation (a validator spends microseconds per element)",
  )
  @EnvInt(1, 1000000)
  MAX_ARRAY_ITEMS = 10000;
  @Describe('Characters of `query`, `additional_context` and every text value in a condition')
  @EnvInt(1, 100000)
  MAX_TEXT_LENGTH = 2000;
  @Describe(
    'Distinct words after segmentation of searched text: the `query` of `kn_search` / `semantic-search`, the value of `match` / `knn` conditions, the `skill_query` of `find_skills`',
  )
  @EnvInt(1, 1000)
  MAX_SEARCH_TERMS = 32;
  @Describe('Levels of a condition tree')
  @EnvInt(1, 64)
  MAX_CONDITION_DEPTH = 10;
  @Describe('Conditions in one tree')
  @EnvInt(1, 10000)
  MAX_CONDITION_NODES = 256;
  @Describe('Values of an `in` / `not_in` list')
  @EnvInt(1, 100000)
  MAX_IN_LIST = 10000;
  @Describe('`relation_type_paths` in one subgraph request')
  @EnvInt(1, 1000)
  MAX_SUBGRAPH_PATHS = 20;
  @Describe('Hops (relation types) per path')
  @EnvInt(1, 32)
  MAX_SUBGRAPH_HOPS = 8;
  @Describe(
    '`_instance_identities` of `logic-property-resolver` and `get_action_info`; `instance_identities` of `find_skills`',
  )
  @EnvInt(1, 100000)
  MAX_INSTANCE_IDENTITIES = 1000;
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
