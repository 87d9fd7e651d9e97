import { forwardHeaders } from '../../common/auth/forward-headers';
import { UpstreamClient, UpstreamObserver, UpstreamRequest } from '../../common/http/upstream-client';
import { UpstreamTarget } from '../../config/upstream.config';
import { ConceptType } from '../knowledge-network.types';
import { BKN_BACKEND, bknError } from './bkn-error';
import { CONCEPT_COLLECTIONS, QueryConceptsBody } from './concept-search.query';
import { asNumber, asRecord, asRecords, JsonRecord } from './json-readers';
import { pathSegment } from '../../common/http/upstream-url';

const NETWORKS_PATH = '/api/bkn-backend/in/v1/knowledge-networks';
const LIST_PAGE_SIZE = 100;
/** Bounds the list walk so a misbehaving total_count cannot keep us paging forever. */
const LIST_MAX_PAGES = 20;

/**
 * bkn-backend (upstream-contracts §7.2): the network list, the schema export, concept search and
 * object-type detail. Returns upstream JSON; mapping to the KN model is the adapter's job.
 */
export class BknBackendClient {
  private readonly http: UpstreamClient;

  constructor(target: UpstreamTarget, observer?: UpstreamObserver) {
    // An empty 404 names the path it was for (§6.1), so the mapper gets the request.
    this.http = new UpstreamClient(
      BKN_BACKEND,
      target,
      (status, body, _name, request) => bknError(status, body, request.path),
      observer,
    );
  }

  /** `GET …/knowledge-networks?offset&limit` → `{entries, total_count}`, every page. */
  async listNetworks(): Promise<JsonRecord[]> {
    const networks: JsonRecord[] = [];
    for (let page = 0; page < LIST_MAX_PAGES; page++) {
      const query = new URLSearchParams({ offset: String(page * LIST_PAGE_SIZE), limit: String(LIST_PAGE_SIZE) });
      const body = asRecord(await this.send({ method: 'GET', path: `${NETWORKS_PATH}?${query}` }));
      const entries = asRecords(body?.entries);
      networks.push(...entries);
      const total = asNumber(body?.total_count);
      if (entries.length < LIST_PAGE_SIZE || (total !== undefined && networks.length >= total)) break;
    }
    return networks;
  }

  exportNetwork(knId: string): Promise<unknown> {
    const path = `${NETWORKS_PATH}/${pathSegment('kn_id', knId)}?include_detail=true&mode=export`;
    return this.send({ method: 'GET', path });
  }

  searchConcepts(knId: string, conceptType: ConceptType, body: QueryConceptsBody): Promise<unknown> {
    const path = `${NETWORKS_PATH}/${pathSegment('kn_id', knId)}/${CONCEPT_COLLECTIONS[conceptType]}`;
    return this.send({ method: 'POST', path, body, headers: { 'x-http-method-override': 'GET' } });
  }

  /** `POST (GET override) …/metrics` with a QueryConceptsReq → `{entries:[MetricType], total_count}`. */
  searchMetrics(knId: string, body: QueryConceptsBody): Promise<unknown> {
    const path = `${NETWORKS_PATH}/${pathSegment('kn_id', knId)}/metrics`;
    return this.send({ method: 'POST', path, body, headers: { 'x-http-method-override': 'GET' } });
  }

  /** `POST …/jobs` `{name, job_type: "full"}` → `{id}`. */
  createJob(knId: string, name: string): Promise<unknown> {
    const path = `${NETWORKS_PATH}/${pathSegment('kn_id', knId)}/jobs`;
    return this.send({ method: 'POST', path, body: { name, job_type: 'full' } });
  }

  /** `GET …/jobs?job_type=full&limit=50&direction=desc` → `{entries:[…], total_count}`. */
  async listFullJobs(knId: string): Promise<JsonRecord[]> {
    const query = new URLSearchParams({ job_type: 'full', limit: '50', direction: 'desc' });
    const path = `${NETWORKS_PATH}/${pathSegment('kn_id', knId)}/jobs?${query}`;
    return asRecords(asRecord(await this.send({ method: 'GET', path }))?.entries);
  }

  /** `GET …/object-types/{ot}?include_detail=true` → `{entries:[…]}`. */
  async objectTypeDetail(knId: string, otId: string): Promise<JsonRecord[]> {
    const path = `${NETWORKS_PATH}/${pathSegment('kn_id', knId)}/object-types/${pathSegment('ot_id', otId)}?include_detail=true`;
    return asRecords(asRecord(await this.send({ method: 'GET', path }))?.entries);
  }

  private async send(request: UpstreamRequest): Promise<unknown> {
    const response = await this.http.request({ ...request, headers: { ...forwardHeaders(), ...request.headers } });
    return response.body;
  }
}
