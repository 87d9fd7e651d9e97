import { CkbAvailability } from './ckb.types';

export type CandidateSource = 'keyword' | 'local_graph' | 'ckb';
export type FallbackMode = 'local_graph' | 'vector_only';

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

/** How a tool answer was produced; the metadata builder turns it into seed 001's `metadata`. */
export interface RetrievalTrace {
  ckb: CkbAvailability;
  /** Absent when CKB supplied the graph. */
  fallbackMode?: FallbackMode;
  fusionDepth: number;
  /** Set when the asked depth was lowered to what the graph source supports. */
  fusionDepthRequested?: number;
  totalCandidates: number;
  warning?: string;
  extra?: Record<string, number>;
}

/** A tool's answer before the metadata is attached. */
export interface ToolOutcome<T> {
  result: T;
  trace: RetrievalTrace;
}
