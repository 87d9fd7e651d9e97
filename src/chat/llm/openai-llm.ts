import { Logger, OnModuleDestroy } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, Dispatcher } from 'undici';
import { AppException } from '../../common/errors/app.exception';
import { classifyFetchFailure, FetchFailureKind } from '../../common/http/fetch-failure';
import { LlmConfig } from '../../config/chat.config';
import { ChatErrors, modelError } from '../chat.errors';
import { LlmChunk, LlmPort, LlmRequest, LlmResponse } from '../chat.types';
import { CallDeadline } from './call-deadline';
import {
  chunkFromFrame,
  chunksFromResponse,
  modelIds,
  parseAnswer,
  requestBody,
  responseFromAnswer,
} from './openai-wire';
import { SseDecoder } from './sse-decoder';
import { abortError, httpError, LlmOutcome, outcomeOf, retryDelayMs, timedOut, unreachable } from './upstream-failure';

/** Told once per call to the endpoint: how it ended and how long it took, in seconds. */
export type LlmObserver = (outcome: LlmOutcome, seconds: number) => void;

const JSON_TYPE = 'application/json';
const EVENT_STREAM_TYPE = 'text/event-stream';
const MODELS_TTL_MS = 60_000;
const RETRY_BACKOFF_MS = 100;
/** undici's own timeouts only back ours up (a body still draining after `[DONE]`, say). */
const BACKSTOP_GRACE_MS = 5000;
/** Failures where no response byte arrived; a reset after the request was sent still produced no answer. */
const RETRIED_FAILURES = new Set<FetchFailureKind>(['refused', 'reset', 'connect-timeout']);

interface HttpCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  accept: string;
  signal?: AbortSignal;
}

type UpstreamResponse = Dispatcher.ResponseData;

interface Opened {
  response: UpstreamResponse;
  deadline: CallDeadline;
}

/** One attempt: the open response, or the error and the wait before retrying it (undefined: not retried). */
type Attempt = { opened: Opened } | { error: Error; retryAfterMs?: number };

/**
 * An OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, LiteLLM...) behind `LlmPort`. It owns the deadlines
 * (connect/headers, then idle), the retries before the first response byte and the translation of every
 * failure to a `ChatErrors` AppException, except the caller's own abort, which surfaces as an `AbortError`.
 *
 * Calls go through undici's dispatcher API on a keep-alive agent of its own rather than `fetch`: a
 * streamed answer is on the request thread for every chunk, and node streams cost a fraction of the
 * web streams `fetch` wraps them in (bench/chat.js). Redirects are not followed (a 3xx is a 502).
 */
export class OpenAiCompatibleLlm extends LlmPort implements OnModuleDestroy {
  readonly configured: boolean;
  private readonly logger = new Logger(OpenAiCompatibleLlm.name);
  private readonly origin: string;
  private readonly basePath: string;
  private readonly agent: Agent;
  private cachedModels?: { ids: string[]; expiresAt: number };

  constructor(
    private readonly config: LlmConfig,
    private readonly observe: LlmObserver = () => undefined,
  ) {
    super();
    this.configured = config.baseUrl !== undefined;
    const apiBase = new URL(config.baseUrl === undefined ? 'http://unconfigured.invalid' : withVersion(config.baseUrl));
    this.origin = apiBase.origin;
    this.basePath = apiBase.pathname.replace(/\/+$/, '');
    this.agent = new Agent({
      headersTimeout: config.connectTimeoutMs + BACKSTOP_GRACE_MS,
      bodyTimeout: config.idleTimeoutMs + BACKSTOP_GRACE_MS,
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.destroy();
  }

  async models(signal?: AbortSignal): Promise<string[]> {
    this.assertConfigured();
    if (this.cachedModels && this.cachedModels.expiresAt > Date.now()) return [...this.cachedModels.ids];
    const ids = await this.observed(async () =>
      modelIds(await this.fetchJson({ method: 'GET', path: '/models', accept: JSON_TYPE, signal })),
    );
    this.cachedModels = { ids, expiresAt: Date.now() + MODELS_TTL_MS };
    return [...ids];
  }

  async defaultModel(signal?: AbortSignal): Promise<string> {
    this.assertConfigured();
    if (this.config.model !== undefined) return this.config.model;
    const [first] = await this.models(signal);
    if (first === undefined) throw modelError(ChatErrors.ModelUnavailable, 'noneListed');
    return first;
  }

  async complete(request: LlmRequest, signal: AbortSignal): Promise<LlmResponse> {
    this.assertConfigured();
    return this.observed(async () => {
      const body = requestBody(request, false);
      const answer = await this.fetchJson({
        method: 'POST',
        path: '/chat/completions',
        body,
        accept: JSON_TYPE,
        signal,
      });
      return responseFromAnswer(answer, request.model);
    });
  }

  /** One generator from the call to its release (a layer of `yield*` costs promises on every batch). */
  async *stream(request: LlmRequest, signal: AbortSignal): AsyncGenerator<LlmChunk[]> {
    this.assertConfigured();
    const started = process.hrtime.bigint();
    let outcome: LlmOutcome = 'ok';
    let opened: Opened | undefined;
    const ending = { complete: false };
    try {
      const body = requestBody(request, true);
      opened = await this.open({ method: 'POST', path: '/chat/completions', body, accept: EVENT_STREAM_TYPE, signal });
      if (isJson(opened.response)) {
        // Some endpoints ignore `stream: true` and answer once: replayed as chunks, callers only ever see chunks.
        const text = await this.readText(opened);
        ending.complete = true;
        yield chunksFromResponse(responseFromAnswer(parseAnswer(text), request.model));
      } else {
        yield* this.events(opened, request.model, ending);
      }
    } catch (error) {
      // open() translated its own failures; what failed after it is translated here.
      const failure = opened ? this.translate(error, opened.deadline) : error;
      outcome = outcomeOf(failure);
      throw failure;
    } finally {
      if (opened) release(opened, ending.complete);
      this.observe(outcome, secondsSince(started));
    }
  }

  /**
   * The chunks of an event stream, a batch per read, the idle deadline armed only while waiting on the
   * endpoint. `ending.complete` turns true once the answer is whole (`[DONE]` or the end of the body).
   */
  private async *events(
    { response, deadline }: Opened,
    model: string,
    ending: { complete: boolean },
  ): AsyncGenerator<LlmChunk[]> {
    // Not destroyed when left early: release() decides between draining and closing the connection.
    const pieces = response.body.iterator({ destroyOnReturn: false });
    const limit = this.config.maxResponseBytes;
    const decoder = new SseDecoder(limit, () => modelError(ChatErrors.ModelOutputInvalid, 'frameTooLarge', { limit }));
    try {
      for (let done = false; !done;) {
        deadline.arm(this.config.idleTimeoutMs);
        const piece = await pieces.next();
        deadline.disarm();
        done = piece.done === true;
        const batch: LlmChunk[] = [];
        for (const data of done ? decoder.end() : decoder.push(piece.value as Buffer)) {
          if (data === '[DONE]') {
            ending.complete = true;
            break;
          }
          const chunk = chunkFromFrame(parseAnswer(data), model);
          if (chunk) batch.push(chunk);
        }
        // The caller may have aborted while this generator waited at a yield.
        if (deadline.callerAborted) throw abortError();
        if (batch.length > 0) yield batch;
        if (ending.complete) return;
      }
      ending.complete = true;
    } finally {
      await pieces.return?.();
    }
  }

  private async fetchJson(call: HttpCall): Promise<Record<string, unknown>> {
    const opened = await this.open(call);
    let complete = false;
    try {
      const text = await this.readText(opened);
      complete = true;
      return parseAnswer(text);
    } catch (error) {
      throw this.translate(error, opened.deadline);
    } finally {
      release(opened, complete);
    }
  }

  /** The whole body, within the idle deadline and LlmConfig.maxResponseBytes. */
  private async readText({ response, deadline }: Opened): Promise<string> {
    deadline.arm(this.config.idleTimeoutMs);
    const limit = this.config.maxResponseBytes;
    const pieces: Buffer[] = [];
    let length = 0;
    try {
      for await (const piece of response.body) {
        length += (piece as Buffer).length;
        if (length > limit) throw modelError(ChatErrors.ModelOutputInvalid, 'answerTooLarge', { limit });
        pieces.push(piece as Buffer);
      }
      return Buffer.concat(pieces, length).toString('utf8');
    } finally {
      deadline.disarm();
    }
  }

  /** Sends the call, retrying what failed before any response byte; the caller disposes the deadline. */
  private async open(call: HttpCall): Promise<Opened> {
    for (let attempt = 1; ; attempt += 1) {
      const result = await this.attempt(call);
      if ('opened' in result) return result.opened;
      if (result.retryAfterMs === undefined || attempt > this.config.retries) throw result.error;
      await backoff(Math.max(RETRY_BACKOFF_MS * attempt, result.retryAfterMs), call.signal);
    }
  }

  private async attempt(call: HttpCall): Promise<Attempt> {
    const deadline = new CallDeadline(call.signal);
    deadline.arm(this.config.connectTimeoutMs);
    let response: UpstreamResponse;
    try {
      response = await this.agent.request({
        origin: this.origin,
        path: `${this.basePath}${call.path}`,
        method: call.method,
        headers: this.headers(call.accept),
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: deadline.signal,
      });
    } catch (error) {
      deadline.dispose();
      return { error: this.translate(error, deadline), retryAfterMs: isRetried(error, deadline) ? 0 : undefined };
    }
    if (response.statusCode < 200 || response.statusCode > 299) return this.refusal({ response, deadline });
    deadline.disarm();
    return { opened: { response, deadline } };
  }

  /** A non-2xx answer: its body read for the error, then the connection released. */
  private async refusal(opened: Opened): Promise<Attempt> {
    const { statusCode } = opened.response;
    let complete = false;
    try {
      const text = await this.readText(opened);
      complete = true;
      const retryAfter = header(opened.response, 'retry-after');
      return {
        error: httpError(statusCode, text, this.config.apiKey),
        retryAfterMs: retryDelayMs(statusCode, retryAfter),
      };
    } catch (error) {
      return { error: this.translate(error, opened.deadline) };
    } finally {
      release(opened, complete);
    }
  }

  private translate(error: unknown, deadline: CallDeadline): Error {
    if (deadline.callerAborted) return abortError();
    if (error instanceof AppException) return error;
    if (deadline.expiredAfterMs !== undefined) return timedOut(deadline.expiredAfterMs);
    this.logger.warn(`model endpoint unreachable: ${classifyFetchFailure(error).reason}`);
    return unreachable();
  }

  private headers(accept: string): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': JSON_TYPE, accept };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    return headers;
  }

  private async observed<T>(run: () => Promise<T>): Promise<T> {
    const started = process.hrtime.bigint();
    let outcome: LlmOutcome = 'ok';
    try {
      return await run();
    } catch (error) {
      outcome = outcomeOf(error);
      throw error;
    } finally {
      this.observe(outcome, secondsSince(started));
    }
  }

  private assertConfigured(): void {
    if (!this.configured) {
      throw modelError(ChatErrors.ModelUnavailable, 'notConfigured');
    }
  }
}

/** The API root: OpenAI-compatible servers serve under `/v1`, which the configured URL may leave out. */
function withVersion(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return base.endsWith('/v1') ? base : `${base}/v1`;
}

function isJson(response: UpstreamResponse): boolean {
  return (header(response, 'content-type') ?? '').toLowerCase().includes(JSON_TYPE);
}

function header(response: UpstreamResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Ends a call. A whole answer leaves its connection in the pool (what may follow `[DONE]` is drained, up
 * to undici's limit); an answer left half-read (the caller stopped, a deadline, a malformed frame) closes it.
 */
function release({ response, deadline }: Opened, complete: boolean): void {
  deadline.dispose();
  if (response.body.readableEnded || response.body.destroyed) return;
  if (complete) response.body.dump().catch(() => undefined);
  else response.body.destroy();
}

/** Our connect/headers deadline, a refused connection or a reset before the answer; never the caller's abort. */
function isRetried(error: unknown, deadline: CallDeadline): boolean {
  if (deadline.callerAborted) return false;
  return deadline.expiredAfterMs !== undefined || RETRIED_FAILURES.has(classifyFetchFailure(error).kind);
}

async function backoff(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    throw abortError();
  }
}

function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}
