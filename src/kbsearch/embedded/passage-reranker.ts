import { Logger } from '@nestjs/common';
import { RerankClient, RerankSettings } from '../../common/search/rerank-client';
import { KbSearchResult } from '../kb.types';

/**
 * Passages reranked by the shared cross-encoder client: each takes the model's score (clamped to [0, 1]);
 * when the endpoint fails the original order is kept, as WeKnora does.
 */
export class PassageReranker {
  private readonly logger = new Logger('RerankClient');
  private readonly client: RerankClient;

  constructor(settings: RerankSettings) {
    this.client = new RerankClient(settings);
  }

  async rerank(query: string, results: KbSearchResult[]): Promise<KbSearchResult[]> {
    if (results.length === 0) return results;
    try {
      const scores = await this.client.score(
        query,
        results.map((result) => result.content),
      );
      return results
        .map((result, index) => ({
          ...result,
          score: Math.round(Math.max(0, Math.min(1, scores[index] ?? 0)) * 10000) / 10000,
        }))
        .sort((a, b) => b.score - a.score);
    } catch (error) {
      this.logger.warn(`rerank skipped, original order kept: ${(error as Error).message}`);
      return results;
    }
  }
}
