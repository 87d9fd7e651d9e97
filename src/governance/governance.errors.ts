import { specificError } from '../common/errors/error-codes';

/** Refusals of the access policy (SPEC §12). */
export const GovernanceErrors = {
  ToolDenied: specificError('Forbidden', 'ToolDenied', 403),
} as const;
