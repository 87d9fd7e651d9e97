import { answerSlot, ChannelFailure } from './channel-failure';
import { ModelEndpoint } from './model-endpoint';

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
  private readonly endpoint: ModelEndpoint;

  constructor(private readonly settings: RerankSettings) {
    const timeoutMs = settings.timeoutMs ?? 10000;
    this.endpoint = new ModelEndpoint({
      url: settings.url,
      path: 'rerank',
      subject: 'rerank endpoint',
      apiKey: settings.apiKey,
      timeoutMs,
      maxAnswerBytes: MAX_ANSWER_BYTES,
    });
  }

  /** The model's score of each document (same order as given); throws a ChannelFailure or upstream error. */
  async score(query: string, documents: string[]): Promise<number[]> {
    if (documents.length === 0) return [];
    const sent = documents.slice(0, MAX_RERANK_DOCUMENTS).map((text) => text.slice(0, MAX_DOCUMENT_CHARS));
    const answer = (await this.endpoint.post({ model: this.settings.model, query, documents: sent })) as
      RerankAnswer | undefined;
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
    const index = answerSlot(
      item?.index,
      count,
      (slot) => scores[slot] !== undefined,
      'rerank endpoint answered an index out of range or twice',
    );
    if (typeof item.relevance_score !== 'number' || !Number.isFinite(item.relevance_score))
      throw new ChannelFailure('not_finite', 'rerank endpoint answered a score that is not a finite number');
    scores[index] = item.relevance_score;
  }
  return scores as number[];
}
