import { AppException } from '../../common/errors/app.exception';
import { PublicErrors, UpstreamErrors } from '../../common/errors/error-codes';
import { UpstreamObserver } from '../../common/http/upstream-client';
import { UpstreamConfig } from '../../config';
import { KnowledgeNetworkPort } from '../knowledge-network.port';
import {
  ActionQueryResult,
  ConceptHit,
  ConceptSearchRequest,
  InstanceIdentity,
  InstanceQuery,
  InstanceQueryResult,
  KnSchema,
  KnSummary,
  LogicPropertyRequest,
  LogicPropertyResult,
  MetricSearchRequest,
  MetricType,
  ObjectInstance,
  OntologyBuildJob,
  RelationTypePath,
  SubgraphEntry,
  SubgraphOptions,
  SubgraphResult,
} from '../knowledge-network.types';
import { BknBackendClient } from './bkn-backend.client';
import {
  mapActionSource,
  mapActionType,
  mapExport,
  mapMetricTypes,
  mapObjectType,
  mapSummary,
} from './bkn-schema.mapper';
import { conceptSearchBody, mergeConceptHits, metricSearchBody } from './concept-search.query';
import { asRecord, asRecords, asString, asText, compact } from './json-readers';
import { dynamicParamsFor, requireLogicProperties } from './logic-property-params';
import { OntologyQueryClient } from './ontology-query.client';

/**
 * The knowledge network served by KWeaver: schema and concept search from bkn-backend, instances,
 * subgraphs, actions and logic properties from ontology-query. BKN errors pass through unchanged;
 * ontology-query errors keep their status class; transport failures are 502 and timeouts 504.
 */
export class KweaverKnowledgeNetwork extends KnowledgeNetworkPort {
  private readonly bkn: BknBackendClient;
  private readonly ontologyQuery: OntologyQueryClient;

  constructor(
    readonly config: UpstreamConfig,
    observer?: UpstreamObserver,
  ) {
    super();
    this.bkn = new BknBackendClient(config.bknBackend, observer);
    this.ontologyQuery = new OntologyQueryClient(config.ontologyQuery, observer);
  }

  async listNetworks(): Promise<KnSummary[]> {
    return (await this.bkn.listNetworks()).map(mapSummary).filter((summary) => summary.id !== '');
  }

  async exportSchema(knId: string): Promise<KnSchema> {
    return mapExport(knId, await this.bkn.exportNetwork(knId));
  }

  /** One BKN search per requested concept type, in parallel; any failure fails the search (§2.4 B). */
  async searchConcepts(knId: string, request: ConceptSearchRequest): Promise<ConceptHit[]> {
    const conceptTypes = [...new Set(request.concept_types)];
    if (conceptTypes.length === 0 || request.limit <= 0) return [];
    const body = conceptSearchBody(request);
    const answers = await Promise.all(
      conceptTypes.map(async (conceptType) => ({
        conceptType,
        body: await this.bkn.searchConcepts(knId, conceptType, body),
      })),
    );
    return mergeConceptHits(answers, request.limit);
  }

  async searchMetrics(knId: string, request: MetricSearchRequest): Promise<MetricType[]> {
    if (request.limit <= 0) return [];
    const body = asRecord(await this.bkn.searchMetrics(knId, metricSearchBody(request)));
    return mapMetricTypes(body?.entries);
  }

  override async createOntologyBuildJob(knId: string, name: string): Promise<{ id: string }> {
    const body = asRecord(await this.bkn.createJob(knId, name));
    const id = asText(body?.id) ?? (typeof body?.id === 'number' ? String(body.id) : undefined);
    if (!id) throw new AppException(UpstreamErrors.BadResponse, 'bkn-backend created a job but answered no id');
    return { id };
  }

  override async listOntologyBuildJobs(knId: string): Promise<OntologyBuildJob[]> {
    return (await this.bkn.listFullJobs(knId)).map((job) =>
      compact({
        id: asString(job.id) ?? String(job.id ?? ''),
        name: asText(job.name),
        kn_id: asText(job.kn_id),
        state: asString(job.state) ?? '',
        state_detail: asText(job.state_detail),
        create_time: job.create_time,
        finished_time: job.finished_time,
      }),
    );
  }

  async queryInstances(knId: string, otId: string, query: InstanceQuery): Promise<InstanceQueryResult> {
    const body = asRecord(await this.ontologyQuery.queryInstances(knId, otId, query));
    return { datas: asRecords(body?.datas) as ObjectInstance[] };
  }

  async querySubgraph(knId: string, paths: RelationTypePath[], options?: SubgraphOptions): Promise<SubgraphResult> {
    const body = asRecord(await this.ontologyQuery.querySubgraph(knId, paths, options?.include_logic_params === true));
    return { entries: asRecords(body?.entries) as unknown as SubgraphEntry[] };
  }

  async queryActions(knId: string, atId: string, identities: InstanceIdentity[]): Promise<ActionQueryResult> {
    const body = asRecord(await this.ontologyQuery.queryActions(knId, atId, identities)) ?? {};
    const actionType = asRecord(body.action_type);
    const actions = asRecords(body.actions).map((action) => {
      const identity = asRecord(action._instance_identity);
      return {
        parameters: asRecord(action.parameters) ?? {},
        ...(identity ? { _instance_identity: identity } : {}),
      };
    });
    const result: ActionQueryResult = { actions };
    if (actionType) result.action_type = mapActionType(actionType);
    const source = mapActionSource(body.action_source);
    if (source) result.action_source = source;
    return result;
  }

  /** Checks the properties against the BKN object type, then asks ontology-query with the given inputs. */
  async resolveLogicProperties(
    knId: string,
    otId: string,
    request: LogicPropertyRequest,
  ): Promise<LogicPropertyResult> {
    const [entry] = await this.bkn.objectTypeDetail(knId, otId);
    if (!entry) {
      throw new AppException(PublicErrors.NotFound, `object type ${otId} not found in knowledge network ${knId}`);
    }
    const properties = requireLogicProperties(mapObjectType(entry), request.properties);
    const body = asRecord(
      await this.ontologyQuery.queryLogicProperties(knId, otId, {
        _instance_identities: request._instance_identities ?? [],
        properties: request.properties,
        dynamic_params: dynamicParamsFor(properties, request.inputs),
      }),
    );
    return { datas: asRecords(body?.datas) };
  }
}
