import { specificError } from '../common/errors/error-codes';

/** Refusals of the access policy (SPEC §12). */
export const GovernanceErrors = {
  ToolDenied: specificError('Forbidden', 'ToolDenied', 403),
  /** What the capability works on does not exist for this connection (no action types, no code index…). */
  ToolNotOffered: specificError('NotFound', 'ToolNotOffered', 404),
} as const;
