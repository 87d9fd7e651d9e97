import { AppException } from '../../common/errors/app.exception';
import { ErrorDefinition, specificError } from '../../common/errors/error-codes';
import { LocalizedDetails } from '../../common/errors/localized-details';

/**
 * Workspace requests the model can correct (a bad path, a limit, a missing file). Their details go back
 * to the model as the tool result, so they name the caller's relative path and never a host path; the
 * texts are in chat.json's `workspace` group.
 */
export const WorkspaceErrors = {
  InvalidPath: specificError('BadRequest', 'WorkspacePathInvalid', 400),
  PathNotFound: specificError('NotFound', 'WorkspacePathNotFound', 404),
  WrongKind: specificError('BadRequest', 'WorkspacePathWrongKind', 400),
  NotText: specificError('BadRequest', 'WorkspaceFileNotText', 400),
  LimitExceeded: specificError('BadRequest', 'WorkspaceLimitExceeded', 400),
  /** The account's workspaces together are at WORKSPACE_ACCOUNT_MAX_SESSIONS, _BYTES or _FILES. */
  QuotaExceeded: specificError('BadRequest', 'WorkspaceQuotaExceeded', 400),
  Gone: specificError('NotFound', 'WorkspaceGone', 404),
  InvalidArguments: specificError('BadRequest', 'WorkspaceToolArguments', 400),
  StorageFull: specificError('InsufficientStorage', 'WorkspaceStorageFull', 507),
  /** WORKSPACE_ROOT cannot be written by the service's user: an operator's fix, logged when it happens. */
  Unavailable: specificError('ServiceUnavailable', 'WorkspaceUnavailable', 503),
  /** Another process held the account's lock for longer than a write should take. */
  Busy: specificError('ServiceUnavailable', 'WorkspaceBusy', 503),
  AccessFailed: specificError('InternalServerError', 'WorkspaceAccessFailed', 500),
} as const;

/** A workspace refusal whose details are chat.json's `workspace.<key>` text. */
export function workspaceError(
  definition: ErrorDefinition,
  key: string,
  args: Record<string, string | number> = {},
): AppException {
  return new AppException(definition, new LocalizedDetails(`chat.workspace.${key}`, args));
}
