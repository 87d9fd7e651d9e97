import { ErrorDefinition } from '../common/errors/error-codes';

const specific = (name: string, reason: string, status: number): ErrorDefinition => ({
  code: `agentRetrieval.${name}.${reason}`,
  status,
  key: reason,
});

/** Errors specific to action recall (SPEC §6). */
export const ActionRecallErrors = {
  UnsupportedActionSource: specific('BadRequest', 'UnsupportedActionSource', 400),
  SchemaConversionFailed: specific('InternalServerError', 'SchemaConversionFailed', 500),
} as const;
