import { AppException } from '../errors/app.exception';
import { UpstreamErrors } from '../errors/error-codes';
import { fetchFailureException } from '../http/fetch-failure';
import { readBoundedJson } from './bounded-json';
import { ChannelFailure } from './channel-failure';

export interface RerankSettings {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
}

/** Documents sent per call, and characters per document: a cross-encoder reads a few hundred tokens anyway. */
export const MAX_RERANK_DOCUMENTS = 200;
const MAX_DOCUMENT_CHARS = 2000;
const MAX_ANSWER_BYTES = 1024 * 1024;

interface RerankAnswer {
  results?: { index?: unknown; relevance_score?: unknown }[];
}

/**
 * A cross-encoder endpoint in the Jina/Cohere shape: `POST {url}/v1/rerank` with `model`, `query`,
 * `documents`, answering `results[{index, relevance_score}]`. One call per question, with a deadline and
 * a bounded answer; an answer that does not score every document exactly once is refused, so a caller
 * either has a score per document or keeps its own order.
 */
export class RerankClient {
  private readonly endpoint: string;
  private readonly timeoutMs: number;

  constructor(private readonly settings: RerankSettings) {
    const base = settings.url.replace(/\/+$/, '');
    this.endpoint = base.endsWith('/v1') ? `${base}/rerank` : `${base}/v1/rerank`;
    this.timeoutMs = settings.timeoutMs ?? 10000;
  }

  /** The model's score of each document (same order as given); throws a ChannelFailure or upstream error. */
  async score(query: string, documents: string[]): Promise<number[]> {
    if (documents.length === 0) return [];
    const sent = documents.slice(0, MAX_RERANK_DOCUMENTS).map((text) => text.slice(0, MAX_DOCUMENT_CHARS));
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.settings.model, query, documents: sent }),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw fetchFailureException(error, { subject: 'rerank endpoint', timeoutMs: this.timeoutMs });
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new AppException(UpstreamErrors.BadResponse, `rerank endpoint answered HTTP ${response.status}`);
    }
    const answer = (await readBoundedJson(response, MAX_ANSWER_BYTES, 'rerank endpoint')) as RerankAnswer;
    return scoresOf(answer, sent.length);
  }
}

function scoresOf(answer: RerankAnswer | undefined, count: number): number[] {
  const results = answer?.results;
  if (!Array.isArray(results)) throw new ChannelFailure('malformed', 'rerank endpoint answered no results list');
  if (results.length !== count)
    throw new ChannelFailure('count', `rerank endpoint scored ${results.length} of ${count} documents`);
  const scores = new Array<number | undefined>(count).fill(undefined);
  for (const item of results) {
    const index = item?.index;
    if (
      typeof index !== 'number' ||
      !Number.isInteger(index) ||
      index < 0 ||
      index >= count ||
      scores[index] !== undefined
    )
      throw new ChannelFailure('count', 'rerank endpoint answered an index out of range or twice');
    if (typeof item.relevance_score !== 'number' || !Number.isFinite(item.relevance_score))
      throw new ChannelFailure('not_finite', 'rerank endpoint answered a score that is not a finite number');
    scores[index] = item.relevance_score;
  }
  return scores as number[];
}
