import { ErrorDefinition } from '../../common/errors/error-codes';

const kweaverError = (name: string, reason: string, status: number): ErrorDefinition => ({
  code: `agentRetrieval.${name}.${reason}`,
  status,
  key: reason,
});

/**
 * Failures of the KWeaver knowledge-network adapter. ontology-query errors keep the upstream status
 * class (404 stays 404, a rejected request is 400, anything else 502); bkn-backend errors that carry
 * BKN's own error body are passed through unchanged instead (see bkn-error.ts).
 */
export const KweaverErrors = {
  OntologyQueryFailed: kweaverError('BadGateway', 'OntologyQueryFailed', 502),
  OntologyQueryNotFound: kweaverError('NotFound', 'OntologyQueryNotFound', 404),
  OntologyQueryRejected: kweaverError('BadRequest', 'OntologyQueryRejected', 400),
  OntologyQueryForbidden: kweaverError('Forbidden', 'OntologyQueryForbidden', 403),
  BknBackendFailed: kweaverError('BadGateway', 'BknBackendFailed', 502),
  LogicPropertyNotFound: kweaverError('BadRequest', 'LogicPropertyNotFound', 400),
} as const;
