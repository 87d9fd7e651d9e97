import { AppException } from '../common/errors/app.exception';
import { ErrorDefinition, specificError } from '../common/errors/error-codes';
import { LocalizedDetails } from '../common/errors/localized-details';

/** Errors of the OpenAI-compatible door (seed 004); their details texts are in `i18n/<lang>/chat.json`. */
export const ChatErrors = {
  InvalidRequest: specificError('BadRequest', 'InvalidChatRequest', 400),
  ToolNotFound: specificError('NotFound', 'ServerToolNotFound', 404),
  ToolFailed: specificError('UnprocessableEntity', 'ToolExecutionFailed', 422),
  SessionForbidden: specificError('Forbidden', 'SessionForbidden', 403),
  ModelUnavailable: specificError('ServiceUnavailable', 'ModelUnavailable', 503),
  ModelUnreachable: specificError('BadGateway', 'ModelUnreachable', 502),
  ModelFailed: specificError('BadGateway', 'ModelFailed', 502),
  /** The model sent something this service refuses to act on (a tool call index, name or size out of bounds). */
  ModelOutputInvalid: specificError('BadGateway', 'ModelOutputInvalid', 502),
  /** The account already has CHAT_MAX_STREAMS_PER_ACCOUNT completions in progress. */
  TooManyTurns: specificError('TooManyRequests', 'ChatTurnsExceeded', 429),
  ModelTimeout: specificError('GatewayTimeout', 'ModelTimeout', 504),
  /** Thrown with the model endpoint's own 4xx status in place of 400. */
  ModelRejected: specificError('BadRequest', 'ModelRequestRejected', 400),
} as const;

/** How the OpenAI shape writes one of these codes: the code and type OpenAI clients know. */
export interface OpenAiErrorCode {
  code: string;
  type: string;
  /** Arguments of the LocalizedDetails copied onto the error object when present (`tool_name`, `param`). */
  fields?: readonly string[];
}

/**
 * The seed's codes (`tool_not_found`, `tool_failed`, `model_unavailable`, …) that OpenAI clients rely
 * on, by error code; any other code is written as it is, its type following the status.
 */
export const OPENAI_ERROR_CODES: ReadonlyMap<string, OpenAiErrorCode> = new Map([
  [ChatErrors.InvalidRequest.code, { code: 'invalid_request', type: 'invalid_request_error', fields: ['param'] }],
  [ChatErrors.ToolNotFound.code, { code: 'tool_not_found', type: 'invalid_request_error' }],
  // detail_code: the code of the refusal that made the tool fail (a workspace refusal), as the other doors show it.
  [
    ChatErrors.ToolFailed.code,
    { code: 'tool_failed', type: 'tool_execution_error', fields: ['tool_name', 'detail_code'] },
  ],
  [ChatErrors.SessionForbidden.code, { code: 'session_forbidden', type: 'permission_error' }],
  [ChatErrors.ModelUnavailable.code, { code: 'model_unavailable', type: 'service_unavailable' }],
  [ChatErrors.ModelUnreachable.code, { code: 'upstream_unavailable', type: 'api_error' }],
  [ChatErrors.ModelFailed.code, { code: 'upstream_unavailable', type: 'api_error' }],
  [ChatErrors.ModelOutputInvalid.code, { code: 'model_error', type: 'api_error' }],
  [ChatErrors.TooManyTurns.code, { code: 'rate_limit_exceeded', type: 'rate_limit_error' }],
  [ChatErrors.ModelTimeout.code, { code: 'upstream_timeout', type: 'api_error' }],
  // The model endpoint's own type, code and param, when its refusal carried them.
  [
    ChatErrors.ModelRejected.code,
    { code: 'upstream_error', type: 'invalid_request_error', fields: ['type', 'code', 'param'] },
  ],
]);

type Args = Record<string, string | number>;

/** A 400 for a malformed chat request; `key` names a text of chat.json's `request` group, `param` the field. */
export function invalidChatRequest(key: string, args: Args = {}): AppException {
  return new AppException(ChatErrors.InvalidRequest, new LocalizedDetails(`chat.request.${key}`, args));
}

/** A failure of the model endpoint; `key` names a text of chat.json's `model` group. */
export function modelError(definition: ErrorDefinition, key: string, args: Args = {}): AppException {
  return new AppException(definition, new LocalizedDetails(`chat.model.${key}`, args));
}
