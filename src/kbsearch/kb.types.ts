/** Knowledge-base search (seed 003, SPEC §9): the port every backend implements and the shapes it speaks. */

export const SEARCH_MODES = ['hybrid', 'vector', 'keyword'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** The search as the tool and the REST route take it, defaults applied. */
export interface KbSearchInput {
  query: string;
  search_mode: SearchMode;
  top_k: number;
  min_score: number;
  rerank: boolean;
}

/**
 * Who is searching, and where: taken from the connection (headers) or the server config, never from
 * tool arguments. The credential only ever travels in the upstream call's header.
 */
export interface KbConnection {
  apiKey?: string;
  /** Knowledge bases to search; empty = every knowledge base this connection can see. */
  kbIds: string[];
  requestId?: string;
}

/** How a passage matched (WeKnora's `match_type` names; `hybrid` for anything else). */
export type MatchType =
  | 'vector'
  | 'keyword'
  | 'nearby_chunk'
  | 'history'
  | 'parent_chunk'
  | 'relation_chunk'
  | 'graph'
  | 'web_search'
  | 'direct_load'
  | 'data_analysis'
  | 'hybrid';

/** One matched passage (the seed's result fields, plus where in the source it sits). */
export interface KbSearchResult {
  id: string;
  content: string;
  /** Relevance in [0, 1]. */
  score: number;
  knowledge_id: string;
  knowledge_title: string;
  knowledge_filename: string;
  knowledge_base_id?: string;
  match_type: MatchType;
  chunk_index?: number;
  /** Embedded backend: the headings above the passage, outermost first. */
  heading_path?: string[];
  start_line?: number;
  end_line?: number;
}

/** A backend's answer before `top_k` is applied: `total_count` counts every result above `min_score`. */
export interface KbSearchAnswer {
  results: KbSearchResult[];
  total_count: number;
}

/** The answer of `POST /kb/search` and the tool's structuredContent. */
export interface KbSearchResponse extends KbSearchAnswer {
  query: string;
  returned: number;
  search_mode: SearchMode;
}

export interface KnowledgeBase {
  id: string;
  name: string;
  description: string;
  document_count: number;
}

export interface KnowledgeBaseList {
  knowledge_bases: KnowledgeBase[];
}

/** A knowledge-base backend: a local documents folder or WeKnora. */
export abstract class KnowledgeBasePort {
  abstract readonly backend: string;
  abstract search(input: KbSearchInput, connection: KbConnection): Promise<KbSearchAnswer>;
  abstract listKnowledgeBases(connection: KbConnection): Promise<KnowledgeBase[]>;

  /** What /health shows about the backend (the embedded one: its index). */
  health(): Record<string, unknown> {
    return { backend: this.backend };
  }
}
