import { AppException } from '../../common/errors/app.exception';
import { ErrorDefinition } from '../../common/errors/error-codes';
import { KweaverErrors } from './kweaver.errors';
import { upstreamStatusDetails } from './upstream-summary';

export const ONTOLOGY_QUERY = 'ontology-query';

/** The catalogue entry for an ontology-query status: its class survives, its body does not. */
export function ontologyQueryDefinition(status: number): ErrorDefinition {
  if (status === 404) return KweaverErrors.OntologyQueryNotFound;
  if (status === 401 || status === 403) return KweaverErrors.OntologyQueryForbidden;
  // 408 and 429 are the upstream's own trouble, not a bad request from our caller.
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return KweaverErrors.OntologyQueryRejected;
  return KweaverErrors.OntologyQueryFailed;
}

/** UpstreamClient error mapper for ontology-query non-2xx answers. */
export function ontologyQueryError(status: number, body: unknown): AppException {
  return new AppException(ontologyQueryDefinition(status), upstreamStatusDetails(ONTOLOGY_QUERY, status, body));
}
