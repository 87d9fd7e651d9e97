import { ErrorDefinition } from '../common/errors/error-codes';

const knError = (name: string, reason: string, status: number): ErrorDefinition => ({
  code: `agentRetrieval.${name}.${reason}`,
  status,
  key: reason,
});

/** Knowledge-network errors shared by both adapters and the knsearch service. */
export const KnErrors = {
  NetworkNotFound: knError('NotFound', 'KnowledgeNetworkNotFound', 404),
  ObjectTypeNotFound: knError('NotFound', 'ObjectTypeNotFound', 404),
  ActionTypeNotFound: knError('NotFound', 'ActionTypeNotFound', 404),
  ConceptGroupNotFound: knError('NotFound', 'ConceptGroupNotFound', 404),
  InvalidCondition: knError('BadRequest', 'InvalidCondition', 400),
  UnknownField: knError('BadRequest', 'UnknownConditionField', 400),
  UnsupportedOperation: knError('BadRequest', 'UnsupportedConditionOperation', 400),
  KnnUnavailable: knError('BadRequest', 'KnnUnavailable', 400),
  InvalidSubgraphPath: knError('BadRequest', 'InvalidRelationTypePath', 400),
  LogicPropertyNotFound: knError('BadRequest', 'LogicPropertyNotFound', 400),
  MissingInputParameter: knError('BadRequest', 'MissingInputParameter', 400),
  LogicPropertyNotComputable: knError('NotImplemented', 'LogicPropertyNotComputable', 501),
  InvalidAdditionalContext: knError('BadRequest', 'InvalidAdditionalContext', 400),
} as const;
