import { specificError } from '../common/errors/error-codes';

/** Errors specific to action recall (SPEC §6). */
export const ActionRecallErrors = {
  UnsupportedActionSource: specificError('BadRequest', 'UnsupportedActionSource', 400),
  SchemaConversionFailed: specificError('InternalServerError', 'SchemaConversionFailed', 500),
} as const;
