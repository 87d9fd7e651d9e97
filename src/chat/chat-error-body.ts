import type { Request } from 'express';
import { currentRequestContext } from '../common/context/request-context';
import { ErrorPresenter } from '../common/errors/error-presenter';
import { ChatError } from './chat-error';

/** Paths of the OpenAI-compatible door: their errors, even before a route matched (413, bad JSON), use OpenAI's shape. */
export function isChatPath(path: string): boolean {
  return path.startsWith('/v1/') || path === '/api/chat/completions' || path.startsWith('/api/chat/completions/');
}

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
};

export interface ChatErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: { error: Record<string, unknown> };
}

/**
 * Any error on a chat path as `{error: {message, type, code}}` with the real status: a ChatError as
 * built; anything else through the error presenter (translated, request id logged, never internals),
 * its code kept (e.g. `agentRetrieval.Unauthorized.TokenMissing`) and its headers (WWW-Authenticate,
 * Retry-After) passed on.
 */
export function chatErrorBody(error: unknown, presenter: ErrorPresenter, request: Request): ChatErrorResponse {
  if (error instanceof ChatError) return { status: error.status, headers: {}, body: error.body() };
  const presented = presenter.present(error, currentRequestContext()?.language, requestIdOf(request));
  const { code, description, details } = presented.body;
  const message = typeof details === 'string' && details !== '' ? `${description}: ${details}` : description;
  return {
    status: presented.status,
    headers: presented.headers,
    body: {
      error: {
        message,
        type: TYPE_BY_STATUS[presented.status] ?? (presented.status >= 500 ? 'api_error' : 'invalid_request_error'),
        code,
      },
    },
  };
}

function requestIdOf(request: Request): string | undefined {
  const id = (request as { id?: unknown }).id;
  return id === undefined ? undefined : String(id);
}
