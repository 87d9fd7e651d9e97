import { ChatError, chatErrors } from '../chat-error';
import { asObject, parseObject } from './openai-wire';

/** How one call to the model endpoint ended, as metrics count it. */
export type LlmOutcome = 'ok' | 'error' | 'timeout' | 'unreachable';

const UNREACHABLE = 'the model endpoint is unreachable';
const MAX_MESSAGE_CHARS = 500;
const MAX_RETRY_AFTER_MS = 2000;

export const unreachable = (): ChatError => chatErrors.upstreamUnavailable(UNREACHABLE);

export const timedOut = (ms: number): ChatError =>
  chatErrors.upstreamTimeout(`the model endpoint did not answer within ${ms} ms`);

/** What a caller's abort surfaces as, so callers can tell their own abort from an upstream failure. */
export function abortError(): Error {
  const error = new Error('the model call was aborted');
  error.name = 'AbortError';
  return error;
}

/**
 * A non-2xx answer: 5xx (and anything else that is not 4xx) is a 502; a 4xx keeps its status and, when the
 * body is OpenAI-shaped, its message, type, code and param, so clients see why their request was refused.
 */
export function httpError(status: number, text: string, apiKey?: string): ChatError {
  if (status < 400 || status >= 500)
    return chatErrors.upstreamUnavailable(`the model endpoint answered HTTP ${status}`);
  const error = asObject(parseObject(text)?.error);
  if (!error || typeof error.message !== 'string') {
    return new ChatError(
      status,
      'invalid_request_error',
      'upstream_error',
      `the model endpoint answered HTTP ${status}`,
    );
  }
  // Some endpoints quote the key they rejected: it never leaves this process.
  const message = apiKey ? error.message.split(apiKey).join('***') : error.message;
  const type = typeof error.type === 'string' && error.type !== '' ? error.type : 'invalid_request_error';
  const code = typeof error.code === 'string' || typeof error.code === 'number' ? String(error.code) : 'upstream_error';
  const extra = typeof error.param === 'string' ? { param: error.param } : {};
  return new ChatError(status, type, code, message.slice(0, MAX_MESSAGE_CHARS), extra);
}

/** How long to wait before retrying this answer, or undefined when it is not retried. */
export function retryDelayMs(status: number, retryAfter: string | undefined): number | undefined {
  if ([502, 503, 504].includes(status)) return 0;
  if (status !== 429) return undefined;
  const wait = retryAfterMs(retryAfter);
  return wait !== undefined && wait <= MAX_RETRY_AFTER_MS ? wait : undefined;
}

export function outcomeOf(error: unknown): LlmOutcome {
  if (!(error instanceof ChatError)) return 'error';
  if (error.code === 'upstream_timeout') return 'timeout';
  return error.code === 'upstream_unavailable' && error.message === UNREACHABLE ? 'unreachable' : 'error';
}

/** `Retry-After` is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterMs(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
