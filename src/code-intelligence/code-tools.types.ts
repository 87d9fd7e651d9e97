export type CandidateSource = 'keyword' | 'local_graph' | 'ckb';

export interface CodeCandidate {
  file: string;
  /** 0–1: the fused score over the best score possible. */
  relevance: number;
  content: string;
  source: CandidateSource;
  /** Graph hops from a keyword hit (0 = a direct hit). */
  distance: number;
  start_line: number;
  end_line: number;
  symbol?: string;
  /** Set when the content was cut to fit the token budget. */
  truncated?: true;
}

export interface GraphRagRequest {
  query: string;
  fusion_depth?: number;
  budget?: number;
}

export interface GraphRagResult {
  candidates: CodeCandidate[];
}

export type CallDirection = 'callers' | 'callees' | 'both';

export interface CallChainRequest {
  symbol: string;
  direction?: CallDirection;
  depth?: number;
}

export interface CallChainNode {
  symbol: string;
  file: string;
  line?: number;
  /** Hops from the asked symbol. */
  distance: number;
}

export interface CallChainResult {
  symbol: string;
  direction: CallDirection;
  definitions: CallChainNode[];
  callers: CallChainNode[];
  callees: CallChainNode[];
}
