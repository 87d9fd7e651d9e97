import { AppException } from '../../common/errors/app.exception';
import { ChatErrors, modelError } from '../chat.errors';
import { asObject, parseObject } from './openai-wire';

/** How one call to the model endpoint ended, as metrics count it. */
export type LlmOutcome = 'ok' | 'error' | 'timeout' | 'unreachable';

const MAX_MESSAGE_CHARS = 500;
const MAX_RETRY_AFTER_MS = 2000;

export const unreachable = (): AppException => modelError(ChatErrors.ModelUnreachable, 'unreachable');

export const timedOut = (ms: number): AppException => modelError(ChatErrors.ModelTimeout, 'timeout', { ms });

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
export function httpError(status: number, text: string, apiKey?: string): AppException {
  if (status < 400 || status >= 500) return modelError(ChatErrors.ModelFailed, 'httpStatus', { status });
  const rejected = { ...ChatErrors.ModelRejected, status };
  const error = asObject(parseObject(text)?.error);
  if (!error || typeof error.message !== 'string') return modelError(rejected, 'httpStatus', { status });
  // Some endpoints quote the key they rejected: it never leaves this process.
  const message = apiKey ? error.message.split(apiKey).join('***') : error.message;
  const args: Record<string, string | number> = { status, message: message.slice(0, MAX_MESSAGE_CHARS) };
  if (typeof error.type === 'string' && error.type !== '') args.type = error.type;
  if (typeof error.code === 'string' || typeof error.code === 'number') args.code = String(error.code);
  if (typeof error.param === 'string') args.param = error.param;
  return modelError(rejected, 'rejected', args);
}

/** How long to wait before retrying this answer, or undefined when it is not retried. */
export function retryDelayMs(status: number, retryAfter: string | undefined): number | undefined {
  if ([502, 503, 504].includes(status)) return 0;
  if (status !== 429) return undefined;
  const wait = retryAfterMs(retryAfter);
  return wait !== undefined && wait <= MAX_RETRY_AFTER_MS ? wait : undefined;
}

export function outcomeOf(error: unknown): LlmOutcome {
  if (!(error instanceof AppException)) return 'error';
  if (error.definition.code === ChatErrors.ModelTimeout.code) return 'timeout';
  return error.definition.code === ChatErrors.ModelUnreachable.code ? 'unreachable' : 'error';
}

/** `Retry-After` is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterMs(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
