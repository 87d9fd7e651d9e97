import { Logger } from '@nestjs/common';
import { AppException } from '../errors/app.exception';
import { UpstreamErrors } from '../errors/error-codes';

/**
 * Why a `fetch` threw. `deadline` is the caller's own AbortSignal (`AbortSignal.timeout` or an abort);
 * undici's internal connect and header timeouts are network failures of their own kinds.
 */
export type FetchFailureKind =
  'deadline' | 'refused' | 'reset' | 'dns' | 'connect-timeout' | 'response-timeout' | 'network';

export interface FetchFailure {
  kind: FetchFailureKind;
  /** Safe to log: built from the error's code, never from its message (which can quote the URL). */
  reason: string;
}

const KIND_BY_CODE: Record<string, FetchFailureKind> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NODATA: 'dns',
  EAI_NONAME: 'dns',
  ETIMEDOUT: 'connect-timeout',
  UND_ERR_CONNECT_TIMEOUT: 'connect-timeout',
  UND_ERR_HEADERS_TIMEOUT: 'response-timeout',
  UND_ERR_BODY_TIMEOUT: 'response-timeout',
};

const REASONS: Record<FetchFailureKind, string> = {
  deadline: 'deadline exceeded',
  refused: 'connection refused',
  reset: 'connection reset',
  dns: 'host name not resolved',
  'connect-timeout': 'connect timed out',
  'response-timeout': 'response timed out',
  network: 'network error',
};

const CODE = /^[A-Z][A-Z0-9_]{1,40}$/;

/** The system or undici code of a fetch failure: node wraps it as `TypeError('fetch failed')` with a `cause`. */
function failureCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CODE.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Classifies what `fetch` threw, without reading its message. */
export function classifyFetchFailure(error: unknown): FetchFailure {
  const name = (error as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'deadline', reason: REASONS.deadline };
  const code = failureCode(error);
  const kind = (code && KIND_BY_CODE[code]) || 'network';
  const label = code ?? (typeof name === 'string' && /^\w{1,40}$/.test(name) ? name : undefined);
  return { kind, reason: label ? `${REASONS[kind]} (${label})` : REASONS[kind] };
}

export interface FetchFailureOptions {
  /** Who failed, in the caller's words (`kweaver-bkn`, `tool box/tool`, `embeddings endpoint`); never a URL. */
  subject: string;
  /** The deadline the call had, quoted in the timeout message. */
  timeoutMs: number;
  /** When given, a failure other than the deadline is logged here as a warning with its safe reason. */
  logger?: Logger;
}

/**
 * The one mapping from a thrown `fetch` error to an upstream error: our deadline → 504 UpstreamTimeout,
 * any other failure (refused, reset, DNS, undici's own timeouts) → 502 UpstreamUnreachable.
 */
export function fetchFailureException(error: unknown, options: FetchFailureOptions): AppException {
  const failure = classifyFetchFailure(error);
  const cause = keptCause(error, failure);
  if (failure.kind === 'deadline') {
    const details = `${options.subject} did not answer within ${options.timeoutMs} ms`;
    return new AppException(UpstreamErrors.Timeout, details, { cause });
  }
  options.logger?.warn(`${options.subject} unreachable: ${failure.reason}`);
  return new AppException(UpstreamErrors.Unreachable, `${options.subject} is unreachable`, {
    cause,
  });
}

/**
 * The error kept as cause (the error presenter logs it): a deadline, or node's `TypeError('fetch failed')`
 * whose cause names a host and port at most. Anything else fetch throws before it tries to connect, and
 * its message can quote the whole URL (credentials included) or a header value: it is not kept.
 */
function keptCause(error: unknown, failure: FetchFailure): unknown {
  return failure.kind === 'deadline' || (error as Error | undefined)?.message === 'fetch failed' ? error : undefined;
}
