import { AppException } from '../errors/app.exception';
import { UpstreamErrors } from '../errors/error-codes';
import { fetchFailureException } from '../http/fetch-failure';
import { fetchWithin } from '../http/outbound-fetch';
import { readBoundedJson } from './bounded-json';

/**
 * A model endpoint of the OpenAI/Jina shape (`{url}/v1/<path>`, `/v1` optional in the configured URL):
 * one JSON POST with a Bearer key, a deadline, no redirects and a bounded answer. Nothing is logged here:
 * whoever catches a failure reports it (start-up, the keyword-only fallback, the error presenter).
 */
export interface ModelEndpointOptions {
  /** The configured base URL; `/v1` is added unless it ends with it. */
  url: string;
  /** The path under `/v1`, e.g. `embeddings`. */
  path: string;
  /** What errors call it, e.g. `embeddings endpoint`. */
  subject: string;
  apiKey?: string;
  timeoutMs: number;
  /** Past this many bytes an answer is refused rather than read. */
  maxAnswerBytes: number;
}

export class ModelEndpoint {
  readonly url: string;
  readonly timeoutMs: number;
  private readonly subject: string;
  private readonly apiKey: string | undefined;
  private readonly maxAnswerBytes: number;

  constructor(options: ModelEndpointOptions) {
    const trimmed = options.url.replace(/\/+$/, '');
    this.url = trimmed.endsWith('/v1') ? `${trimmed}/${options.path}` : `${trimmed}/v1/${options.path}`;
    this.timeoutMs = options.timeoutMs;
    this.subject = options.subject;
    this.apiKey = options.apiKey;
    this.maxAnswerBytes = options.maxAnswerBytes;
  }

  /** The parsed answer (undefined when empty); an upstream error for a failed call or an HTTP error. */
  async post(body: unknown): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    const init = { method: 'POST', headers, body: JSON.stringify(body), redirect: 'error' } as const;
    try {
      return await fetchWithin(this.url, init, this.timeoutMs, async (response) => {
        if (!response.ok) {
          await response.body?.cancel().catch(() => undefined);
          throw new AppException(UpstreamErrors.BadResponse, `${this.subject} answered HTTP ${response.status}`);
        }
        return readBoundedJson(response, this.maxAnswerBytes, this.subject);
      });
    } catch (error) {
      // Our own verdicts pass; what the transport threw (the deadline included, mid-body too) is mapped.
      if (error instanceof AppException) throw error;
      throw fetchFailureException(error, { subject: this.subject, timeoutMs: this.timeoutMs });
    }
  }
}
