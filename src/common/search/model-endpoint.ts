import { AppException } from '../errors/app.exception';
import { UpstreamErrors } from '../errors/error-codes';
import { fetchFailureException } from '../http/fetch-failure';
import { readBoundedJson } from './bounded-json';

/**
 * A model endpoint of the OpenAI/Jina shape (`{url}/v1/<path>`, `/v1` optional in the configured URL):
 * one JSON POST with a Bearer key, a deadline, no redirects and a bounded answer. Nothing is logged here:
 * whoever catches a failure reports it (start-up, the keyword-only fallback, the error presenter).
 */
export class ModelEndpoint {
  readonly url: string;

  constructor(
    base: string,
    path: string,
    private readonly subject: string,
    private readonly apiKey: string | undefined,
    readonly timeoutMs: number,
    private readonly maxAnswerBytes: number,
  ) {
    const trimmed = base.replace(/\/+$/, '');
    this.url = trimmed.endsWith('/v1') ? `${trimmed}/${path}` : `${trimmed}/v1/${path}`;
  }

  /** The parsed answer (undefined when empty); an upstream error for a failed call or an HTTP error. */
  async post(body: unknown): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw fetchFailureException(error, { subject: this.subject, timeoutMs: this.timeoutMs });
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new AppException(UpstreamErrors.BadResponse, `${this.subject} answered HTTP ${response.status}`);
    }
    return readBoundedJson(response, this.maxAnswerBytes, this.subject);
  }
}
