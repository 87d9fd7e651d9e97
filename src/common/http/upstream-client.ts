import { Logger } from '@nestjs/common';
import { UpstreamTarget } from '../../config/upstream.config';
import { withUpstreamName } from '../../tracing/upstream-span';
import { AppException } from '../errors/app.exception';
import { UpstreamErrors } from '../errors/error-codes';
import { fetchFailureException } from './fetch-failure';
import { fetchWithin } from './outbound-fetch';
import { upstreamUrl } from './upstream-url';

export interface UpstreamRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path (and query) appended to the target's base URL; never a full URL. */
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Overrides the target's timeout for this call. */
  timeoutMs?: number;
}

export interface UpstreamResponse<T = unknown> {
  status: number;
  body: T;
}

export type UpstreamOutcome = 'ok' | 'error' | 'timeout' | 'unreachable';

/** Told about every call (upstream name, outcome, seconds); metrics hang here. */
export type UpstreamObserver = (upstream: string, outcome: UpstreamOutcome, seconds: number) => void;

/** Called with a non-2xx response; returns the error to throw (lets adapters pass errors through). */
export type UpstreamErrorMapper = (status: number, body: unknown, name: string, request: UpstreamRequest) => Error;

/**
 * HTTP to one configured upstream: base URL fixed by config (calls cannot leave it), a deadline on
 * every request, JSON in and out, transport failures as 502 and timeouts as 504.
 */
export class UpstreamClient {
  private readonly logger: Logger;

  constructor(
    readonly name: string,
    private readonly target: UpstreamTarget,
    private readonly onError: UpstreamErrorMapper = defaultUpstreamError,
    private readonly observe: UpstreamObserver = () => undefined,
  ) {
    this.logger = new Logger(`Upstream:${name}`);
  }

  /** The target's base URL joined with `path`; a path that would leave the base is a 400 (see upstreamUrl). */
  url(path: string): string {
    return upstreamUrl(this.target.baseUrl, path, this.name).href;
  }

  async request<T = unknown>(request: UpstreamRequest): Promise<UpstreamResponse<T>> {
    // Built before the call is timed or counted: a refused path never reaches the upstream.
    const url = this.url(request.path);
    const started = process.hrtime.bigint();
    let outcome: UpstreamOutcome = 'error';
    try {
      const response = await this.send<T>(url, request);
      outcome = 'ok';
      return response;
    } catch (error) {
      const definition = (error as AppException).definition;
      if (definition === UpstreamErrors.Timeout) outcome = 'timeout';
      else if (definition === UpstreamErrors.Unreachable) outcome = 'unreachable';
      throw error;
    } finally {
      this.observe(this.name, outcome, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  private async send<T>(url: string, request: UpstreamRequest): Promise<UpstreamResponse<T>> {
    const { status, ok, text } = await this.exchange(url, request);
    const body = parseBody(text);
    if (!ok) {
      this.logger.warn(`${request.method} ${request.path.split('?')[0]} answered HTTP ${status}`);
      throw this.onError(status, body, this.name, request);
    }
    if (text !== '' && body === undefined) {
      throw new AppException(UpstreamErrors.BadResponse, `${this.name} returned a body that is not JSON`);
    }
    return { status, body: body as T };
  }

  /**
   * The call and its body under one deadline. A 2xx body cut short (a reset, the deadline mid-body) is a
   * failed call, never an empty success; an error status's body is only read for its error, as far as it goes.
   */
  private async exchange(
    url: string,
    request: UpstreamRequest,
  ): Promise<{ status: number; ok: boolean; text: string }> {
    const timeoutMs = request.timeoutMs ?? this.target.timeoutMs;
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const init = {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      redirect: 'error',
    } as const;
    try {
      return await withUpstreamName(this.name, () =>
        fetchWithin(url, init, timeoutMs, async (response) => ({
          status: response.status,
          ok: response.ok,
          text: response.ok ? await response.text() : await response.text().catch(() => ''),
        })),
      );
    } catch (error) {
      throw fetchFailureException(error, { subject: this.name, timeoutMs, logger: this.logger });
    }
  }
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Default mapping: an upstream's 4xx keeps its status class as our 502 with the status in details. */
export function defaultUpstreamError(status: number, _body: unknown, name: string): Error {
  return new AppException(UpstreamErrors.BadResponse, `${name} answered HTTP ${status}`);
}
