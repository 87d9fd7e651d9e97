import { AppException } from '../../common/errors/app.exception';
import { isRecord } from '../../common/http/json-inspection';
import { UpstreamClient, UpstreamObserver, UpstreamRequest } from '../../common/http/upstream-client';
import { pathSegment } from '../../common/http/upstream-url';
import { KbConfig } from '../../config';
import { KbErrors } from '../kbsearch.errors';
import {
  KbConnection,
  KbSearchAnswer,
  KbSearchInput,
  KbSearchResult,
  KnowledgeBase,
  KnowledgeBasePort,
} from '../kb.types';
import { readAnswer, toResult, upstreamMessage, WeKnoraAnswer } from './weknora-answer';

const UPSTREAM = 'weknora';

/** Candidates asked of a per-KB hybrid search: WeKnora's own over-retrieval floor. */
const matchCountFor = (topK: number): number => Math.max(50, topK * 5);

/** `Authorization: Bearer` for a JWT (WeKnora's web login), `X-API-Key` for a tenant key (`sk-…`). */
const JWT = /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/;

/** A WeKnora error whose HTTP status the tool quotes (`Search failed: <status> - <message>`). */
export class WeKnoraAnswered extends AppException {
  constructor(
    definition: AppException['definition'],
    details: string,
    readonly upstreamStatus: number,
  ) {
    super(definition, details);
  }
}

/** What one search step found, and the total the answer reported when it reported one. */
interface Found {
  results: KbSearchResult[];
  totalCount?: number;
}

/**
 * WeKnora (v0.7 contract, reference part B). With WEKNORA_API_SHAPE=weknora (default): hybrid search
 * through `POST /api/v1/knowledge-search` (`query`, `knowledge_base_ids`), vector-only or keyword-only
 * through each knowledge base's `hybrid-search` with the matching disable flag, merged by score; `top_k`
 * and `min_score` are applied here (WeKnora takes neither). With `seed`: every mode through
 * knowledge-search in seed 003 §6.1's request (`question`, `search_mode`, `top_k`, `min_score`,
 * `rerank`). Answers are read in either shape, per answer. With no knowledge-base ids the credential's
 * knowledge bases are listed and all searched. The credential is only ever a request header.
 */
export class WeKnoraKnowledgeBase extends KnowledgeBasePort {
  readonly backend = 'weknora';
  private readonly client: UpstreamClient;

  constructor(
    private readonly config: KbConfig,
    observer?: UpstreamObserver,
  ) {
    super();
    const { baseUrl, timeoutMs } = config.weknora;
    this.client = new UpstreamClient(
      UPSTREAM,
      { baseUrl: baseUrl ?? '', timeoutMs },
      (status, body) => this.answeredError(status, body),
      observer,
    );
  }

  async search(input: KbSearchInput, connection: KbConnection): Promise<KbSearchAnswer> {
    const headers = this.headers(connection);
    const kbIds = connection.kbIds.length > 0 ? connection.kbIds : (await this.list(headers)).map((kb) => kb.id);
    if (kbIds.length === 0) return { results: [], total_count: 0 };
    const found =
      this.config.weknora.apiShape === 'seed' || input.search_mode === 'hybrid'
        ? await this.knowledgeSearch(input, kbIds, headers)
        : { results: await this.perBaseSearch(input, kbIds, headers) };
    const results = found.results.filter((result) => result.score >= input.min_score).sort((a, b) => b.score - a.score);
    // A seed-shaped answer's total may count more than it returned (it applied top_k itself).
    return { results, total_count: Math.max(results.length, found.totalCount ?? 0) };
  }

  async listKnowledgeBases(connection: KbConnection): Promise<KnowledgeBase[]> {
    const all = await this.list(this.headers(connection));
    if (connection.kbIds.length === 0) return all;
    const scoped = new Set(connection.kbIds);
    return all.filter((kb) => scoped.has(kb.id));
  }

  private async knowledgeSearch(
    input: KbSearchInput,
    kbIds: string[],
    headers: Record<string, string>,
  ): Promise<Found> {
    const answer = await this.call({
      method: 'POST',
      path: '/api/v1/knowledge-search',
      headers,
      body: this.knowledgeSearchBody(input, kbIds),
    });
    return { results: answer.items.map(toResult), totalCount: answer.totalCount };
  }

  /** The request WEKNORA_API_SHAPE names: WeKnora's own, or seed 003 §6.1's. */
  private knowledgeSearchBody(input: KbSearchInput, kbIds: string[]): Record<string, unknown> {
    if (this.config.weknora.apiShape === 'weknora') return { query: input.query, knowledge_base_ids: kbIds };
    const { query, search_mode, top_k, min_score, rerank } = input;
    return { question: query, knowledge_base_ids: kbIds, search_mode, top_k, min_score, rerank };
  }

  /** One hybrid-search per knowledge base with the other channel disabled, merged; the best score of a chunk wins. */
  private async perBaseSearch(
    input: KbSearchInput,
    kbIds: string[],
    headers: Record<string, string>,
  ): Promise<KbSearchResult[]> {
    const disable = input.search_mode === 'vector' ? { disable_keywords_match: true } : { disable_vector_match: true };
    // Every path is built (and checked) before the first call: one bad id means no call at all.
    const paths = kbIds.map((id) => `/api/v1/knowledge-bases/${pathSegment('knowledge base id', id)}/hybrid-search`);
    const answers = await Promise.all(
      kbIds.map((id, i) =>
        this.call({
          method: 'POST',
          path: paths[i],
          headers,
          body: { query_text: input.query, match_count: matchCountFor(input.top_k), ...disable },
        }).then((answer) => answer.items.map((item) => ({ ...toResult(item), knowledge_base_id: id }))),
      ),
    );
    const best = new Map<string, KbSearchResult>();
    for (const result of answers.flat()) {
      const known = best.get(result.id);
      if (!known || known.score < result.score) best.set(result.id, result);
    }
    return [...best.values()];
  }

  private async list(headers: Record<string, string>): Promise<KnowledgeBase[]> {
    const { items } = await this.call({ method: 'GET', path: '/api/v1/knowledge-bases', headers });
    return items.filter(isRecord).flatMap((kb) => {
      if (typeof kb.id !== 'string' || kb.id === '') return [];
      const count = [kb.knowledge_count, kb.document_count, kb.doc_count].find((value) => typeof value === 'number');
      return [
        {
          id: kb.id,
          name: typeof kb.name === 'string' ? kb.name : kb.id,
          description: typeof kb.description === 'string' ? kb.description : '',
          document_count: typeof count === 'number' ? count : 0,
        },
      ];
    });
  }

  /** The items of a `{success, data[]}` or `{results[], total_count}` answer; anything else is a bad upstream answer. */
  private async call(request: UpstreamRequest): Promise<WeKnoraAnswer> {
    const { body } = await this.client.request<unknown>(request);
    const answer = readAnswer(body);
    if (!answer) {
      throw new AppException(
        KbErrors.UpstreamFailed,
        'WeKnora returned an answer with neither a data list ({success, data}) nor a results list ({results, total_count})',
      );
    }
    return answer;
  }

  private headers(connection: KbConnection): Record<string, string> {
    const apiKey = connection.apiKey ?? this.config.weknora.apiKey;
    if (!apiKey) {
      throw new AppException(
        KbErrors.CredentialMissing,
        'no WeKnora credential: send the X-WeKnora-Api-Key header or set WEKNORA_API_KEY',
      );
    }
    const headers: Record<string, string> = JWT.test(apiKey)
      ? { authorization: `Bearer ${apiKey}` }
      : { 'x-api-key': apiKey };
    if (this.config.weknora.tenantId) headers['x-tenant-id'] = this.config.weknora.tenantId;
    if (connection.requestId) headers['x-request-id'] = connection.requestId;
    return headers;
  }

  /** A non-2xx answer; its text is WeKnora's own message (never the request, so never the credential). */
  private answeredError(status: number, body: unknown): Error {
    if (status === 401 || status === 403) {
      return new WeKnoraAnswered(
        KbErrors.CredentialRejected,
        `WeKnora rejected the credential (HTTP ${status}); check X-WeKnora-Api-Key or WEKNORA_API_KEY`,
        status,
      );
    }
    const message = upstreamMessage(body);
    const details = `WeKnora answered HTTP ${status}${message ? `: ${message}` : ''}`;
    if (status === 404) return new WeKnoraAnswered(KbErrors.KnowledgeBaseNotFound, details, status);
    return new WeKnoraAnswered(KbErrors.UpstreamFailed, details, status);
  }
}
