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
  MetricSearchRequest,
  MetricType,
  NetworkIndexStatus,
  OntologyBuildJob,
  RelationTypePath,
  SubgraphOptions,
  SubgraphResult,
  TypedInstanceQuery,
} from './knowledge-network.types';
import { AppException } from '../common/errors/app.exception';
import { PublicErrors } from '../common/errors/error-codes';

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

  /** `include_logic_params` adds each logic property's parameters (with the instance's bound values) to every instance. */
  abstract queryInstances(knId: string, otId: string, query: InstanceQuery): Promise<InstanceQueryResult>;

  /**
   * Several object types' queries at once, answered in order, each as queryInstances answers it. An
   * adapter that can answer them in one trip (the embedded store) overrides this; the default asks per type.
   */
  queryInstanceBatch(knId: string, queries: TypedInstanceQuery[]): Promise<InstanceQueryResult[]> {
    return Promise.all(queries.map(({ otId, query }) => this.queryInstances(knId, otId, query)));
  }

  abstract querySubgraph(knId: string, paths: RelationTypePath[], options?: SubgraphOptions): Promise<SubgraphResult>;

  /** An action type's source and one bound action per target instance. */
  abstract queryActions(knId: string, atId: string, identities: InstanceIdentity[]): Promise<ActionQueryResult>;

  abstract resolveLogicProperties(
    knId: string,
    otId: string,
    request: LogicPropertyRequest,
  ): Promise<LogicPropertyResult>;

  /** Metric types ranked by relevance to a query (search_schema); see MetricSearchRequest for the two recalls. */
  abstract searchMetrics(knId: string, request: MetricSearchRequest): Promise<MetricType[]>;

  /** Starts a full ontology build job; only a platform that builds ontologies (KWeaver) can. */
  createOntologyBuildJob(knId: string, name: string): Promise<{ id: string }> {
    void knId;
    void name;
    return Promise.reject(notBuildable('full_build_ontology'));
  }

  /** The latest full build jobs, newest first (at most 50). */
  listOntologyBuildJobs(knId: string): Promise<OntologyBuildJob[]> {
    void knId;
    return Promise.reject(notBuildable('full_ontology_building_status'));
  }

  /**
   * Re-indexes a network from its sources and swaps the new index in; resolves once it serves (or the
   * sources were unchanged). Only the embedded store has sources to re-read.
   */
  reloadNetwork(knId: string): Promise<NetworkIndexStatus> {
    void knId;
    return Promise.reject(
      new AppException(
        PublicErrors.NotImplemented,
        'reload needs the embedded backend (KN_BACKEND=embedded): KWeaver networks are built by the platform',
      ),
    );
  }

  /** Readiness detail for /health; adapters that load or connect override it. */
  health(): Promise<KnHealth> {
    return Promise.resolve({ ready: true });
  }
}

function notBuildable(route: string): AppException {
  return new AppException(
    PublicErrors.NotImplemented,
    `${route} needs the KWeaver backend (KN_BACKEND=kweaver): the embedded store is built from BKN files at start-up and has no build jobs`,
  );
}
