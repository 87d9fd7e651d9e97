import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { classifyFetchFailure, FetchFailureKind } from '../../common/http/fetch-failure';
import { LlmConfig } from '../../config/chat.config';
import { ChatError, chatErrors } from '../chat-error';
import { LlmChunk, LlmPort, LlmRequest, LlmResponse } from '../chat.types';
import { CallDeadline } from './call-deadline';
import { chunkFromFrame, chunksFromResponse, modelIds, parseAnswer, responseFromAnswer } from './openai-wire';
import { SseDecoder } from './sse-decoder';
import { abortError, httpError, LlmOutcome, outcomeOf, retryDelayMs, timedOut, unreachable } from './upstream-failure';

/** Told once per call to the endpoint: how it ended and how long it took, in seconds. */
export type LlmObserver = (outcome: LlmOutcome, seconds: number) => void;

const JSON_TYPE = 'application/json';
const EVENT_STREAM_TYPE = 'text/event-stream';
const MODELS_TTL_MS = 60_000;
const RETRY_BACKOFF_MS = 100;
/** Failures where no response byte arrived; a reset after the request was sent still produced no answer. */
const RETRIED_FAILURES = new Set<FetchFailureKind>(['refused', 'reset', 'connect-timeout']);

interface HttpCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  accept: string;
  signal?: AbortSignal;
}

interface Opened {
  response: Response;
  deadline: CallDeadline;
}

/** One attempt: the open response, or the error and the wait before retrying it (undefined: not retried). */
type Attempt = { opened: Opened } | { error: Error; retryAfterMs?: number };

/**
 * An OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, LiteLLM...) behind `LlmPort`. It owns the deadlines
 * (connect/headers, then idle), the retries before the first response byte and the translation of every
 * failure to a `ChatError`, except the caller's own abort, which surfaces as an `AbortError`.
 */
export class OpenAiCompatibleLlm extends LlmPort {
  readonly configured: boolean;
  private readonly logger = new Logger(OpenAiCompatibleLlm.name);
  private readonly apiBase: string;
  private cachedModels?: { ids: string[]; expiresAt: number };

  constructor(
    private readonly config: LlmConfig,
    private readonly observe: LlmObserver = () => undefined,
  ) {
    super();
    this.configured = config.baseUrl !== undefined;
    this.apiBase = config.baseUrl === undefined ? '' : withVersion(config.baseUrl);
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
    if (first === undefined) throw chatErrors.modelUnavailable('the model endpoint lists no model: set LLM_MODEL');
    return first;
  }

  async complete(request: LlmRequest, signal: AbortSignal): Promise<LlmResponse> {
    this.assertConfigured();
    return this.observed(async () => {
      const body = { ...request, stream: false };
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

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncGenerator<LlmChunk> {
    this.assertConfigured();
    const started = process.hrtime.bigint();
    let outcome: LlmOutcome = 'ok';
    try {
      yield* this.streamChunks(request, signal);
    } catch (error) {
      outcome = outcomeOf(error);
      throw error;
    } finally {
      this.observe(outcome, secondsSince(started));
    }
  }

  private async *streamChunks(request: LlmRequest, signal: AbortSignal): AsyncGenerator<LlmChunk> {
    const body = { ...request, stream: true, stream_options: { include_usage: true } };
    const opened = await this.open({
      method: 'POST',
      path: '/chat/completions',
      body,
      accept: EVENT_STREAM_TYPE,
      signal,
    });
    try {
      if (isJson(opened.response)) {
        // Some endpoints ignore `stream: true` and answer once: replayed as chunks, callers only ever see chunks.
        yield* chunksFromResponse(responseFromAnswer(parseAnswer(await this.readText(opened)), request.model));
      } else {
        yield* this.events(opened, request.model);
      }
    } catch (error) {
      throw this.translate(error, opened.deadline);
    } finally {
      opened.deadline.dispose();
    }
  }

  /** The chunks of an event stream, the idle deadline armed only while waiting on the endpoint. */
  private async *events({ response, deadline }: Opened, model: string): AsyncGenerator<LlmChunk> {
    if (!response.body) return;
    const reader = response.body.getReader();
    const decoder = new SseDecoder();
    for (let done = false; !done;) {
      deadline.arm(this.config.idleTimeoutMs);
      const piece = await reader.read();
      deadline.disarm();
      done = piece.done;
      for (const data of piece.done ? decoder.end() : decoder.push(piece.value)) {
        if (data === '[DONE]') return;
        const chunk = chunkFromFrame(parseAnswer(data), model);
        // The caller may have aborted while this generator waited at a yield.
        if (deadline.callerAborted) throw abortError();
        if (chunk) yield chunk;
      }
    }
  }

  private async fetchJson(call: HttpCall): Promise<Record<string, unknown>> {
    const opened = await this.open(call);
    try {
      return parseAnswer(await this.readText(opened));
    } catch (error) {
      throw this.translate(error, opened.deadline);
    } finally {
      opened.deadline.dispose();
    }
  }

  /** The whole body, within the idle deadline. */
  private async readText({ response, deadline }: Opened): Promise<string> {
    deadline.arm(this.config.idleTimeoutMs);
    try {
      return await response.text();
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
    let response: Response;
    try {
      response = await fetch(`${this.apiBase}${call.path}`, {
        method: call.method,
        headers: this.headers(call.accept),
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: deadline.signal,
        redirect: 'error',
      });
    } catch (error) {
      deadline.dispose();
      return { error: this.translate(error, deadline), retryAfterMs: isRetried(error, deadline) ? 0 : undefined };
    }
    if (!response.ok) return this.refusal(response, deadline);
    deadline.disarm();
    return { opened: { response, deadline } };
  }

  /** A non-2xx answer: its body read for the error, then the connection released. */
  private async refusal(response: Response, deadline: CallDeadline): Promise<Attempt> {
    try {
      const text = await this.readText({ response, deadline });
      return { error: httpError(response.status, text, this.config.apiKey), retryAfterMs: retryDelayMs(response) };
    } catch (error) {
      return { error: this.translate(error, deadline) };
    } finally {
      deadline.dispose();
    }
  }

  private translate(error: unknown, deadline: CallDeadline): Error {
    if (deadline.callerAborted) return abortError();
    if (error instanceof ChatError) return error;
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
      throw chatErrors.modelUnavailable(
        'no language model is configured: set LLM_BASE_URL (and LLM_MODEL, LLM_API_KEY if needed)',
      );
    }
  }
}

/** The API root: OpenAI-compatible servers serve under `/v1`, which the configured URL may leave out. */
function withVersion(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return base.endsWith('/v1') ? base : `${base}/v1`;
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().includes(JSON_TYPE);
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
