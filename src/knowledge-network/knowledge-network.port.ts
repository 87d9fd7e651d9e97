import {
  ActionQueryResult,
  ConceptHit,
  ConceptSearchRequest,
  InstanceIdentity,
  InstanceQuery,
  InstanceQueryResult,
  KnHealth,
  KnSchema,
  KnSummary,
  LogicPropertyRequest,
  LogicPropertyResult,
  RelationTypePath,
  SubgraphResult,
} from './knowledge-network.types';

/**
 * Port to the knowledge network. Adapters: `EmbeddedKnowledgeNetwork` (BKN files + CSV in SQLite) and
 * `KweaverKnowledgeNetwork` (ontology-query + bkn-backend over HTTP); `KN_BACKEND` picks one.
 * Failures are AppExceptions (unknown network/type → 404, bad condition → 400, upstream → 502/504).
 */
export abstract class KnowledgeNetworkPort {
  abstract listNetworks(): Promise<KnSummary[]>;

  /** The whole schema (object, relation, action types and concept groups). */
  abstract exportSchema(knId: string): Promise<KnSchema>;

  /** Concepts ranked by relevance to a query (keyword, plus vector when embeddings are configured). */
  abstract searchConcepts(knId: string, request: ConceptSearchRequest): Promise<ConceptHit[]>;

  abstract queryInstances(knId: string, otId: string, query: InstanceQuery): Promise<InstanceQueryResult>;

  abstract querySubgraph(knId: string, paths: RelationTypePath[]): Promise<SubgraphResult>;

  /** An action type's source and one bound action per target instance. */
  abstract queryActions(knId: string, atId: string, identities: InstanceIdentity[]): Promise<ActionQueryResult>;

  abstract resolveLogicProperties(
    knId: string,
    otId: string,
    request: LogicPropertyRequest,
  ): Promise<LogicPropertyResult>;

  /** Readiness detail for /health; adapters that load or connect override it. */
  health(): Promise<KnHealth> {
    return Promise.resolve({ ready: true });
  }
}
