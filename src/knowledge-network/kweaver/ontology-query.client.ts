import { forwardHeaders } from '../../common/auth/forward-headers';
import { UpstreamClient, UpstreamObserver } from '../../common/http/upstream-client';
import { UpstreamTarget } from '../../config/upstream.config';
import { InstanceIdentity, InstanceQuery, RelationTypePath } from '../knowledge-network.types';
import { ONTOLOGY_QUERY, ontologyQueryError } from './ontology-query-error';
import { pathSegment } from '../../common/http/upstream-url';

const NETWORKS_PATH = '/api/ontology-query/in/v1/knowledge-networks';

/** `POST …/object-types/{ot}/properties` body (upstream-contracts §7.1). */
export interface LogicPropertiesBody {
  _instance_identities: InstanceIdentity[];
  properties: string[];
  dynamic_params: Record<string, Record<string, unknown>>;
}

/**
 * ontology-query (upstream-contracts §7.1). Every call is a search-style POST with
 * `x-http-method-override: GET`; answers are returned as upstream JSON for the adapter to map.
 */
export class OntologyQueryClient {
  private readonly http: UpstreamClient;

  constructor(target: UpstreamTarget, observer?: UpstreamObserver) {
    this.http = new UpstreamClient(ONTOLOGY_QUERY, target, ontologyQueryError, observer);
  }

  queryInstances(knId: string, otId: string, query: InstanceQuery): Promise<unknown> {
    const flags = new URLSearchParams({
      include_type_info: 'false',
      include_logic_params: String(query.include_logic_params === true),
    });
    const path = `${this.network(knId)}/object-types/${pathSegment('ot_id', otId)}?${flags}`;
    return this.post(path, { condition: query.condition, limit: query.limit, properties: query.properties });
  }

  /** `include_logic_params=true&` comes before `query_type` when asked for (§7.1). */
  querySubgraph(knId: string, paths: RelationTypePath[], includeLogicParams = false): Promise<unknown> {
    const flags = includeLogicParams ? 'include_logic_params=true&' : '';
    return this.post(`${this.network(knId)}/subgraph?${flags}query_type=relation_path`, { relation_type_paths: paths });
  }

  /** Identities are always sent as an array, never null (§9 case 12). */
  queryActions(knId: string, atId: string, identities: InstanceIdentity[]): Promise<unknown> {
    const path = `${this.network(knId)}/action-types/${pathSegment('at_id', atId)}`;
    return this.post(path, { _instance_identities: Array.isArray(identities) ? identities : [] });
  }

  queryLogicProperties(knId: string, otId: string, body: LogicPropertiesBody): Promise<unknown> {
    return this.post(`${this.network(knId)}/object-types/${pathSegment('ot_id', otId)}/properties`, body);
  }

  private network(knId: string): string {
    return `${NETWORKS_PATH}/${pathSegment('kn_id', knId)}`;
  }

  private async post(path: string, body: unknown): Promise<unknown> {
    const headers = { ...forwardHeaders(), 'x-http-method-override': 'GET' };
    return (await this.http.request({ method: 'POST', path, headers, body })).body;
  }
}
