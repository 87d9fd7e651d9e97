import { AppException } from '../../common/errors/app.exception';
import { isRecord } from '../../common/http/json-inspection';
import { UpstreamClient, UpstreamObserver, UpstreamRequest } from '../../common/http/upstream-client';
import { KbConfig } from '../../config';
import { KbErrors } from '../kbsearch.errors';
import {
  KbConnection,
  KbSearchAnswer,
  KbSearchInput,
  KbSearchResult,
  KnowledgeBase,
  KnowledgeBasePort,
  MatchType,
} from '../kb.types';

const UPSTREAM = 'weknora';

/** WeKnora's integer `match_type` (types.MatchType) by number; any other value reads as `hybrid`. */
const MATCH_TYPES: readonly MatchType[] = [
  'vector',
  'keyword',
  'nearby_chunk',
  'history',
  'parent_chunk',
  'relation_chunk',
  'graph',
  'web_search',
  'direct_load',
  'data_analysis',
];

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

interface WeKnoraEnvelope {
  success?: boolean;
  data?: unknown;
}

/**
 * WeKnora (v0.7 contract, reference part B): hybrid search through `POST /api/v1/knowledge-search`
 * (`query`, `knowledge_base_ids`), vector-only or keyword-only through each knowledge base's
 * `hybrid-search` with the matching disable flag, merged by score. `top_k` and `min_score` are applied
 * here (WeKnora takes neither). With no knowledge-base ids the credential's knowledge bases are listed
 * and all searched. The credential is only ever a request header.
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
      input.search_mode === 'hybrid'
        ? await this.knowledgeSearch(input.query, kbIds, headers)
        : await this.perBaseSearch(input, kbIds, headers);
    const results = found.filter((result) => result.score >= input.min_score).sort((a, b) => b.score - a.score);
    return { results, total_count: results.length };
  }

  async listKnowledgeBases(connection: KbConnection): Promise<KnowledgeBase[]> {
    const all = await this.list(this.headers(connection));
    if (connection.kbIds.length === 0) return all;
    const scoped = new Set(connection.kbIds);
    return all.filter((kb) => scoped.has(kb.id));
  }

  private async knowledgeSearch(
    query: string,
    kbIds: string[],
    headers: Record<string, string>,
  ): Promise<KbSearchResult[]> {
    const data = await this.call({
      method: 'POST',
      path: '/api/v1/knowledge-search',
      headers,
      body: { query, knowledge_base_ids: kbIds },
    });
    return data.map(toResult);
  }

  /** One hybrid-search per knowledge base with the other channel disabled, merged; the best score of a chunk wins. */
  private async perBaseSearch(
    input: KbSearchInput,
    kbIds: string[],
    headers: Record<string, string>,
  ): Promise<KbSearchResult[]> {
    const disable = input.search_mode === 'vector' ? { disable_keywords_match: true } : { disable_vector_match: true };
    const answers = await Promise.all(
      kbIds.map((id) =>
        this.call({
          method: 'POST',
          path: `/api/v1/knowledge-bases/${encodeURIComponent(id)}/hybrid-search`,
          headers,
          body: { query_text: input.query, match_count: matchCountFor(input.top_k), ...disable },
        }).then((data) => data.map((item) => ({ ...toResult(item), knowledge_base_id: id }))),
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
    const data = await this.call({ method: 'GET', path: '/api/v1/knowledge-bases', headers });
    return data.filter(isRecord).flatMap((kb) => {
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

  /** The `data` array of a `{success, data}` answer; anything else is a bad upstream answer. */
  private async call(request: UpstreamRequest): Promise<unknown[]> {
    const { body } = await this.client.request<WeKnoraEnvelope>(request);
    if (!isRecord(body) || body.success === false || !Array.isArray(body.data)) {
      throw new AppException(KbErrors.UpstreamFailed, 'WeKnora returned an answer without a data list');
    }
    return body.data;
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

/** WeKnora's `{error: {message}}`, `{error: "..."}` or `{message}`, cut short and on one line. */
function upstreamMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const error = body.error;
  const text = isRecord(error) ? error.message : typeof error === 'string' ? error : body.message;
  return typeof text === 'string' ? text.replace(/\s+/g, ' ').trim().slice(0, 200) : undefined;
}

/** One `SearchResult` of WeKnora's answer in this service's shape (match_type number or name). */
function toResult(item: unknown): KbSearchResult {
  const value = isRecord(item) ? item : {};
  const text = (field: string): string => (typeof value[field] === 'string' ? (value[field] as string) : '');
  const score = typeof value.score === 'number' && Number.isFinite(value.score) ? value.score : 0;
  return {
    id: text('id'),
    content: text('content'),
    score: Math.max(0, Math.min(1, score)),
    knowledge_id: text('knowledge_id'),
    knowledge_title: text('knowledge_title'),
    knowledge_filename: text('knowledge_filename'),
    match_type: matchType(value.match_type),
    ...(typeof value.chunk_index === 'number' ? { chunk_index: value.chunk_index } : {}),
  };
}

function matchType(value: unknown): MatchType {
  if (typeof value === 'number') return MATCH_TYPES[value] ?? 'hybrid';
  if (typeof value === 'string') {
    const known = [...MATCH_TYPES, 'embedding', 'keywords'].find((name) => name === value);
    if (known === 'embedding') return 'vector';
    if (known === 'keywords') return 'keyword';
    if (known) return known as MatchType;
  }
  return 'hybrid';
}
