import { specificError } from '../../common/errors/error-codes';

/**
 * Failures of the KWeaver knowledge-network adapter. ontology-query errors keep the upstream status
 * class (404 stays 404, a rejected request is 400, anything else 502); bkn-backend errors that carry
 * BKN's own error body are passed through unchanged instead (see bkn-error.ts).
 */
export const KweaverErrors = {
  OntologyQueryFailed: specificError('BadGateway', 'OntologyQueryFailed', 502),
  OntologyQueryNotFound: specificError('NotFound', 'OntologyQueryNotFound', 404),
  OntologyQueryRejected: specificError('BadRequest', 'OntologyQueryRejected', 400),
  OntologyQueryForbidden: specificError('Forbidden', 'OntologyQueryForbidden', 403),
  BknBackendFailed: specificError('BadGateway', 'BknBackendFailed', 502),
} as const;
