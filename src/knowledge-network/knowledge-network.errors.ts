import { ErrorDefinition, specificError } from '../common/errors/error-codes';

/** Knowledge-network errors shared by both adapters and the knsearch service. */
export const KnErrors = {
  NetworkNotFound: specificError('NotFound', 'KnowledgeNetworkNotFound', 404),
  ObjectTypeNotFound: specificError('NotFound', 'ObjectTypeNotFound', 404),
  ActionTypeNotFound: specificError('NotFound', 'ActionTypeNotFound', 404),
  ConceptGroupNotFound: specificError('NotFound', 'ConceptGroupNotFound', 404),
  InvalidCondition: specificError('BadRequest', 'InvalidCondition', 400),
  UnknownField: specificError('BadRequest', 'UnknownConditionField', 400),
  UnsupportedOperation: specificError('BadRequest', 'UnsupportedConditionOperation', 400),
  KnnUnavailable: specificError('BadRequest', 'KnnUnavailable', 400),
  InvalidSubgraphPath: specificError('BadRequest', 'InvalidRelationTypePath', 400),
  LogicPropertyNotFound: specificError('BadRequest', 'LogicPropertyNotFound', 400),
  MissingInputParameter: specificError('BadRequest', 'MissingInputParameter', 400),
  LogicPropertyNotComputable: specificError('NotImplemented', 'LogicPropertyNotComputable', 501),
  InvalidAdditionalContext: specificError('BadRequest', 'InvalidAdditionalContext', 400),
  /** A re-index failed (bad source file, unreadable INDEX_DIR); the previous index keeps serving. */
  IndexBuildFailed: specificError('Conflict', 'NetworkIndexBuildFailed', 409),
} as const;

/**
 * An unknown network, and one the access policy hides, answer alike (SPEC §12): the same code and the
 * same words, which name no other network.
 */
export function networkNotFound(knId: string): [ErrorDefinition, string] {
  return [
    KnErrors.NetworkNotFound,
    `knowledge network "${knId.slice(0, 256)}" not found; list_knowledge_networks (GET /kn/networks) lists the networks you can use`,
  ];
}
