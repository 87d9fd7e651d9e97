import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { configToken, KbConfig } from '../config';
import { CallMetrics, MetricsService } from '../metrics/metrics.service';
import { parseKbSearch } from './kb-search.arguments';
import {
  KbConnection,
  KbSearchAnswer,
  KbSearchInput,
  KbSearchResponse,
  KnowledgeBaseList,
  KnowledgeBasePort,
} from './kb.types';

type Outcome = 'ok' | 'error';

/**
 * Knowledge-base search (SPEC §9) for every door (REST, MCP, chat): validates the arguments, applies
 * `top_k`, caches answers when KB_CACHE_TTL_S is set, and counts, times and logs each search — the
 * query's length, never its text, and never the credential.
 */
@Injectable()
export class KbSearchService {
  private readonly logger = new Logger('KbSearch');
  private readonly metrics: CallMetrics;
  private readonly cache?: LRUCache<string, KbSearchAnswer>;

  constructor(
    private readonly port: KnowledgeBasePort,
    @Inject(configToken('kb')) config: KbConfig,
    metrics: MetricsService,
  ) {
    this.metrics = metrics.calls({
      total: 'kb_search_total',
      duration: 'kb_search_duration_seconds',
      what: 'Knowledge-base searches',
      labels: ['backend', 'mode', 'outcome'],
    });
    if (config.cache.ttlSeconds > 0) {
      this.cache = new LRUCache({ max: config.cache.size, ttl: config.cache.ttlSeconds * 1000 });
    }
  }

  get backend(): string {
    return this.port.backend;
  }

  /** A search from an unvalidated body (REST) or tool arguments (MCP). */
  async search(body: unknown, connection: KbConnection): Promise<KbSearchResponse> {
    const input = parseKbSearch(body);
    const started = process.hrtime.bigint();
    let outcome: Outcome = 'error';
    let answer: KbSearchAnswer | undefined;
    let cached = false;
    try {
      const key = this.cache ? cacheKey(input, connection) : undefined;
      answer = key === undefined ? undefined : this.cache!.get(key);
      cached = answer !== undefined;
      if (!answer) {
        answer = await this.port.search(input, connection);
        if (key !== undefined) this.cache!.set(key, answer);
      }
      outcome = 'ok';
    } finally {
      this.record(input, connection, outcome, started, answer, cached);
    }
    const results = answer.results.slice(0, input.top_k);
    return {
      query: input.query,
      results,
      total_count: answer.total_count,
      returned: results.length,
      search_mode: input.search_mode,
    };
  }

  async listKnowledgeBases(connection: KbConnection): Promise<KnowledgeBaseList> {
    return { knowledge_bases: await this.port.listKnowledgeBases(connection) };
  }

  private record(
    input: KbSearchInput,
    connection: KbConnection,
    outcome: Outcome,
    started: bigint,
    answer: KbSearchAnswer | undefined,
    cached: boolean,
  ): void {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const labels = { backend: this.port.backend, mode: input.search_mode, outcome };
    this.metrics.record(labels, seconds);
    const line = {
      backend: this.port.backend,
      mode: input.search_mode,
      query_length: [...input.query].length,
      kb_count: connection.kbIds.length || undefined,
      result_count: answer ? Math.min(answer.results.length, input.top_k) : undefined,
      total_count: answer?.total_count,
      latency_ms: Math.round(seconds * 10000) / 10,
      cached: cached || undefined,
    };
    if (outcome === 'ok') this.logger.log(line, 'kb search');
    else this.logger.warn(line, 'kb search failed');
  }
}

/**
 * What decides an answer: the search arguments, the knowledge-base set and a hash of the credential
 * (never the credential itself).
 */
function cacheKey(input: KbSearchInput, connection: KbConnection): string {
  const credential = connection.apiKey ? createHash('sha256').update(connection.apiKey).digest('hex') : '';
  return JSON.stringify([
    input.query,
    input.search_mode,
    input.min_score,
    input.rerank,
    [...connection.kbIds].sort(),
    credential,
    input.top_k,
  ]);
}
