import { Logger } from '@nestjs/common';
import { UpstreamClient } from '../../common/http/upstream-client';
import { KbSearchResult } from '../kb.types';

export interface RerankSettings {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
}

interface RerankResponse {
  results?: { index?: unknown; relevance_score?: unknown }[];
}

/**
 * A rerank endpoint in the Jina/Cohere shape (`POST {url}/v1/rerank` with `model`, `query`, `documents`;
 * answers `results[{index, relevance_score}]`). Reranked passages take the model's score (clamped to
 * [0, 1]); when the endpoint fails the original order is kept, as WeKnora does.
 */
export class RerankClient {
  private readonly logger = new Logger('RerankClient');
  private readonly client: UpstreamClient;
  private readonly path: string;

  constructor(private readonly settings: RerankSettings) {
    const base = settings.url.replace(/\/+$/, '');
    this.path = base.endsWith('/v1') ? '/rerank' : '/v1/rerank';
    this.client = new UpstreamClient('rerank endpoint', { baseUrl: base, timeoutMs: settings.timeoutMs ?? 10000 });
  }

  async rerank(query: string, results: KbSearchResult[]): Promise<KbSearchResult[]> {
    if (results.length === 0) return results;
    try {
      const response = await this.client.request<RerankResponse>({
        method: 'POST',
        path: this.path,
        headers: this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : undefined,
        body: { model: this.settings.model, query, documents: results.map((result) => result.content) },
      });
      const scores = new Map<number, number>();
      for (const item of response.body?.results ?? []) {
        if (Number.isInteger(item.index) && typeof item.relevance_score === 'number') {
          scores.set(item.index as number, Math.max(0, Math.min(1, item.relevance_score)));
        }
      }
      if (scores.size === 0) throw new Error('the answer scored no passage');
      return results
        .map((result, index) => ({ ...result, score: Math.round((scores.get(index) ?? 0) * 10000) / 10000 }))
        .sort((a, b) => b.score - a.score);
    } catch (error) {
      this.logger.warn(`rerank skipped, original order kept: ${(error as Error).message}`);
      return results;
    }
  }
}
