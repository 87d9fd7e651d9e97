import { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ChannelFailure, ChannelFailureReason, channelFailureReason } from '../../common/search/channel-failure';
import { RankAgreement, rankAgreement } from '../../common/search/rank-agreement';
import { RerankClient, RerankSettings } from '../../common/search/rerank-client';
import { RerankMode } from '../../config/kn.config';
import { ConceptHit, ObjectInstance, ScoreChannels } from '../knowledge-network.types';
import { EmbeddingClient, EmbeddingSettings } from '../../common/search/embedding-client';
import { QueryVectors } from './hybrid-search';

export type RecallChannel = 'vector' | 'rerank';

/** Told when a channel was skipped and what shadow reranking measured; metrics hang here. */
export interface RecallObserver {
  degraded(channel: RecallChannel, reason: ChannelFailureReason): void;
  shadow(agreement: RankAgreement): void;
}

export interface RecallChannelSettings {
  embedding?: EmbeddingSettings;
  rerank?: RerankSettings;
  rerankMode: RerankMode;
  rerankTopN: number;
  /** Deadline of each query-time call. */
  timeoutMs: number;
}

const QUERY_VECTORS_CACHED = 1000;
const MAX_RERANK_TEXT = 1000;
const rounded = (value: number): number => Math.round(value * 10000) / 10000;

/**
 * The query-time calls of hybrid recall, on the request thread: a question's embedding (cached, checked
 * against the network's vector length) and the cross-encoder over the best results (`off`, `shadow`,
 * `on`). Either endpoint failing costs the request that channel only: one warning, one `degraded` count.
 */
export class RecallChannels {
  private readonly logger = new Logger('RecallChannels');
  private readonly embeddings?: EmbeddingClient;
  private readonly reranker?: RerankClient;
  private readonly cache = new LRUCache<string, number[]>({ max: QUERY_VECTORS_CACHED });

  constructor(
    private readonly settings: RecallChannelSettings,
    private readonly observer: RecallObserver = { degraded: () => undefined, shadow: () => undefined },
  ) {
    const deadline = { timeoutMs: settings.timeoutMs };
    if (settings.embedding)
      this.embeddings = new EmbeddingClient({ ...settings.embedding, ...deadline, batchSize: 16 });
    if (settings.rerank && settings.rerankMode !== 'off')
      this.reranker = new RerankClient({ ...settings.rerank, ...deadline });
  }

  get rerankMode(): RerankMode {
    return this.reranker ? this.settings.rerankMode : 'off';
  }

  /** The vectors of the texts (one call for those not cached); empty when the endpoint fails. */
  async queryVectors(texts: string[], dimension: number): Promise<QueryVectors> {
    const vectors: QueryVectors = {};
    if (!this.embeddings || dimension <= 0 || texts.length === 0) return vectors;
    const missing = [...new Set(texts)].filter((text) => {
      const known = this.cache.get(text);
      if (known) vectors[text] = known;
      return !known;
    });
    if (missing.length === 0) return vectors;
    try {
      const answered = await this.embeddings.embed(missing);
      answered.forEach((vector, i) => {
        if (vector.length !== dimension)
          throw new ChannelFailure('dimension', `query vector has ${vector.length} numbers, the index ${dimension}`);
        vectors[missing[i]] = Array.from(vector);
        this.cache.set(missing[i], vectors[missing[i]]);
      });
      return vectors;
    } catch (error) {
      this.skip('vector', error, 'keyword ranking only');
      return {};
    }
  }

  /** Instances reranked (on), or scored and compared without reordering (shadow); each shows its channels. */
  rerankInstances(query: string, instances: ObjectInstance[]): Promise<ObjectInstance[]> {
    return this.rerank(
      query,
      instances,
      (instance) => instanceText(instance),
      (instance, score) => ({
        ...instance,
        _score_channels: { ...channelsOf(instance._score_channels, instance._score), rerank: score },
      }),
      (instance, score) => ({ ...instance, _score: score }),
    );
  }

  rerankConcepts(query: string, hits: ConceptHit[]): Promise<ConceptHit[]> {
    return this.rerank(
      query,
      hits,
      (hit) => [hit.name, hit.detail.comment ?? ''].join('\n'),
      (hit, score) => ({ ...hit, score_channels: { ...channelsOf(hit.score_channels, hit.score), rerank: score } }),
      (hit, score) => ({ ...hit, score }),
    );
  }

  private async rerank<T>(
    query: string,
    items: T[],
    text: (item: T) => string,
    scored: (item: T, score: number) => T,
    ranked: (item: T, score: number) => T,
  ): Promise<T[]> {
    if (!this.reranker || items.length < 2) return items;
    const head = items.slice(0, this.settings.rerankTopN);
    let scores: number[];
    try {
      scores = await this.reranker.score(
        query,
        head.map((item) => text(item).slice(0, MAX_RERANK_TEXT)),
      );
    } catch (error) {
      this.skip('rerank', error, 'fused order kept');
      return items;
    }
    const order = head.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
    const withScores = head.map((item, i) => scored(item, rounded(scores[i])));
    if (this.settings.rerankMode === 'shadow') {
      const agreement = rankAgreement(order);
      this.observer.shadow(agreement);
      this.logger.log(
        `rerank shadow over ${head.length}: spearman ${agreement.spearman}, top-5 changes ${agreement.top5Changes}`,
      );
      return [...withScores, ...items.slice(head.length)];
    }
    // Served order is the cross-encoder's: its score becomes the result's score, and the results past the
    // top N stay below every reranked one (callers such as kn_search sort by score again).
    const floor = Math.min(0, ...scores);
    return [
      ...order.map((i) => ranked(withScores[i], rounded(scores[i]))),
      ...items.slice(head.length).map((item, i) => ranked(item, floor - (i + 1) * 1e-6)),
    ];
  }

  private skip(channel: RecallChannel, error: unknown, outcome: string): void {
    const reason = channelFailureReason(error);
    this.observer.degraded(channel, reason);
    const endpoint = channel === 'vector' ? 'embeddings' : 'rerank';
    this.logger.warn(`${endpoint} endpoint failed (${reason}), ${outcome}: ${(error as Error).message}`);
  }
}

function channelsOf(channels: ScoreChannels | undefined, score: number | undefined): ScoreChannels {
  if (channels) return channels;
  return typeof score === 'number' ? { keyword: rounded(score), fused: rounded(score) } : {};
}

/** What the cross-encoder reads of an instance: its display name, then its text properties. */
function instanceText(instance: ObjectInstance): string {
  const parts = [instance._display ?? ''];
  for (const [key, value] of Object.entries(instance)) {
    if (!key.startsWith('_') && typeof value === 'string' && value !== instance._display) parts.push(value);
  }
  return parts.join('\n');
}
