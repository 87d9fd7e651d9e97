import { FIND_SKILLS } from './find-skills.capability';
import { GET_KN_DETAIL } from './get-kn-detail.capability';
import { KN_SCHEMA_SEARCH } from './kn-schema-search.capability';
import { KN_SEARCH } from './kn-search.capability';
import { FULL_BUILD_ONTOLOGY, FULL_ONTOLOGY_BUILDING_STATUS } from './ontology-jobs.capability';
import { LIST_KNOWLEDGE_NETWORKS } from './list-knowledge-networks.capability';
import { QUERY_INSTANCE_SUBGRAPH } from './query-instance-subgraph.capability';
import { QUERY_OBJECT_INSTANCE } from './query-object-instance.capability';
import { RELOAD_NETWORK } from './reload-network.capability';
import { RESOLVE_LOGIC_PROPERTIES } from './resolve-logic-properties.capability';
import { SEARCH_SCHEMA } from './search-schema.capability';

/** In the order they are listed: discovery first, then search, instances, subgraphs, logic properties, skills. */
export const KN_CAPABILITIES = [
  LIST_KNOWLEDGE_NETWORKS,
  GET_KN_DETAIL,
  SEARCH_SCHEMA,
  KN_SCHEMA_SEARCH,
  KN_SEARCH,
  QUERY_OBJECT_INSTANCE,
  QUERY_INSTANCE_SUBGRAPH,
  RESOLVE_LOGIC_PROPERTIES,
  FIND_SKILLS,
  FULL_BUILD_ONTOLOGY,
  FULL_ONTOLOGY_BUILDING_STATUS,
  RELOAD_NETWORK,
];
