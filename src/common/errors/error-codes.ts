/**
 * The error-code catalogue. Each entry fixes the wire `code`, the HTTP status and the i18n key
 * whose `description`/`solution` live in `i18n/<lang>/errors.json`.
 */
export interface ErrorDefinition {
  readonly code: string;
  readonly status: number;
  readonly key: string;
}

const publicError = (name: string, status: number): ErrorDefinition => ({
  code: `Public.${name}`,
  status,
  key: name,
});

/** A feature-specific code `agentRetrieval.<Name>.<Reason>`; `reason` is also its i18n key. */
export const specificError = (name: string, reason: string, status: number): ErrorDefinition => ({
  code: `agentRetrieval.${name}.${reason}`,
  status,
  key: reason,
});

export const PublicErrors = {
  BadRequest: publicError('BadRequest', 400),
  Unauthorized: publicError('Unauthorized', 401),
  Forbidden: publicError('Forbidden', 403),
  NotFound: publicError('NotFound', 404),
  MethodNotAllowed: publicError('MethodNotAllowed', 405),
  Conflict: publicError('Conflict', 409),
  PayloadTooLarge: publicError('PayloadTooLarge', 413),
  UnsupportedMediaType: publicError('UnsupportedMediaType', 415),
  TooManyRequests: publicError('TooManyRequests', 429),
  InternalServerError: publicError('InternalServerError', 500),
  NotImplemented: publicError('NotImplemented', 501),
  BadGateway: publicError('BadGateway', 502),
  ServiceUnavailable: publicError('ServiceUnavailable', 503),
  GatewayTimeout: publicError('GatewayTimeout', 504),
} as const;

export const ValidationErrors = {
  Required: specificError('BadRequest', 'ValidationRequired', 400),
  Format: specificError('BadRequest', 'ValidationFormat', 400),
  Range: specificError('BadRequest', 'ValidationRange', 400),
  Enum: specificError('BadRequest', 'ValidationEnum', 400),
  Type: specificError('BadRequest', 'ValidationType', 400),
  InvalidJson: specificError('BadRequest', 'InvalidJson', 400),
  InvalidResponseFormat: specificError('BadRequest', 'InvalidResponseFormat', 400),
  LimitExceeded: specificError('BadRequest', 'LimitExceeded', 400),
  InvalidUnicode: specificError('BadRequest', 'InvalidUnicode', 400),
} as const;

export const AuthErrors = {
  TokenMissing: specificError('Unauthorized', 'TokenMissing', 401),
  TokenInactive: specificError('Unauthorized', 'TokenInactive', 401),
  AccountMissing: specificError('Unauthorized', 'AccountMissing', 401),
  IntrospectionUnavailable: specificError('ServiceUnavailable', 'IntrospectionUnavailable', 503),
  HostNotAllowed: specificError('Forbidden', 'HostNotAllowed', 403),
  RouteAccessUndeclared: specificError('Forbidden', 'RouteAccessUndeclared', 403),
} as const;

export const UpstreamErrors = {
  Unreachable: specificError('BadGateway', 'UpstreamUnreachable', 502),
  Timeout: specificError('GatewayTimeout', 'UpstreamTimeout', 504),
  BadResponse: specificError('BadGateway', 'UpstreamBadResponse', 502),
} as const;

/** Generic code for a bare HTTP status (used when a library raises a plain HttpException). */
export function publicErrorForStatus(status: number): ErrorDefinition {
  const known = Object.values(PublicErrors).find((definition) => definition.status === status);
  if (known) return known;
  return status >= 500 ? { ...PublicErrors.InternalServerError, status } : { ...PublicErrors.BadRequest, status };
}
