import { specificError } from '../common/errors/error-codes';

/** Errors specific to action recall (SPEC §6) and execute_action. */
export const ActionRecallErrors = {
  UnsupportedActionSource: specificError('BadRequest', 'UnsupportedActionSource', 400),
  SchemaConversionFailed: specificError('InternalServerError', 'SchemaConversionFailed', 500),
  ActionNotExecutable: specificError('NotFound', 'ActionNotExecutable', 404),
  ActionInstanceNotFound: specificError('NotFound', 'ActionInstanceNotFound', 404),
  InvalidActionArguments: specificError('BadRequest', 'InvalidActionArguments', 400),
  ActionDisabled: specificError('Forbidden', 'ActionDisabled', 403),
  ActionApprovalRequired: specificError('Forbidden', 'ActionApprovalRequired', 403),
  /** The client was asked to get the user's approval (MCP input_required); never reaches a client as an error. */
  ActionApprovalPending: specificError('Forbidden', 'ActionApprovalPending', 403),
  ActionDeclined: specificError('Forbidden', 'ActionDeclined', 403),
  ActionTriggerConditionNotMet: specificError('Conflict', 'ActionTriggerConditionNotMet', 409),
  ActionPreconditionFailed: specificError('Conflict', 'ActionPreconditionFailed', 409),
  ActionConditionInvalid: specificError('InternalServerError', 'ActionConditionInvalid', 500),
} as const;
