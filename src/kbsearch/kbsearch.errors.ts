import { specificError } from '../common/errors/error-codes';

/** Knowledge-base search errors (SPEC §9); none of them ever quotes the credential. */
export const KbErrors = {
  VectorSearchUnavailable: specificError('BadRequest', 'VectorSearchUnavailable', 400),
  CredentialMissing: specificError('BadRequest', 'KnowledgeBaseCredentialMissing', 400),
  CredentialRejected: specificError('Forbidden', 'KnowledgeBaseCredentialRejected', 403),
  KnowledgeBaseNotFound: specificError('NotFound', 'KnowledgeBaseNotFound', 404),
  UpstreamFailed: specificError('BadGateway', 'KnowledgeBaseSearchFailed', 502),
} as const;
