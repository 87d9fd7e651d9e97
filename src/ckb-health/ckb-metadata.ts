import { performance } from 'node:perf_hooks';
import { CkbAvailability, CkbFallbackReason } from './ckb.types';

/** How a code tool answered without CKB's graph. */
export type FallbackMode = 'local_graph' | 'vector_only';

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

/** The `metadata` object of seed 001 §3.1 (plus counters that the schema allows as extra properties). */
export interface CkbMetadata {
  ckb_available: boolean;
  /** Required when ckb_available is false. */
  ckb_fallback_reason?: CkbFallbackReason;
  ckb_last_error?: string;
  ckb_cooldown_remaining_s?: number;
  fallback_mode?: FallbackMode;
  fusion_depth: number;
  fusion_depth_requested?: number;
  warning?: string;
  total_candidates: number;
  query_time_ms: number;
  [counter: string]: unknown;
}

export type WithCkbMetadata<T> = T & { metadata: CkbMetadata };

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, Math.round(value)));

/** The one builder of the metadata: the REST interceptor, the MCP tools and the CLI all call it. */
export function buildCkbMetadata(trace: RetrievalTrace, queryTimeMs: number): CkbMetadata {
  const metadata: CkbMetadata = {
    ckb_available: trace.ckb.available,
    fusion_depth: clamp(trace.fusionDepth, 0, 5),
    total_candidates: trace.totalCandidates,
    query_time_ms: Math.max(0, Math.round(queryTimeMs)),
  };
  if (!trace.ckb.available) {
    metadata.ckb_fallback_reason = trace.ckb.reason;
    if (trace.ckb.lastError) metadata.ckb_last_error = trace.ckb.lastError;
    if (trace.ckb.cooldownRemainingSeconds !== undefined) {
      metadata.ckb_cooldown_remaining_s = clamp(trace.ckb.cooldownRemainingSeconds, 0, 60);
    }
  }
  if (trace.fallbackMode) metadata.fallback_mode = trace.fallbackMode;
  if (trace.fusionDepthRequested !== undefined) metadata.fusion_depth_requested = trace.fusionDepthRequested;
  if (trace.warning) metadata.warning = trace.warning;
  return { ...metadata, ...(trace.extra ?? {}) };
}

/** A tool answer with its metadata; `startedAt` is a `performance.now()` reading from the start of the call. */
export function withCkbMetadata<T extends object>(outcome: ToolOutcome<T>, startedAt: number): WithCkbMetadata<T> {
  return { ...outcome.result, metadata: buildCkbMetadata(outcome.trace, performance.now() - startedAt) };
}

/** Runs a code tool and adds seed 001's metadata, `query_time_ms` timed around the call. */
export async function timedWithCkbMetadata<T extends object>(
  run: () => Promise<ToolOutcome<T>>,
): Promise<WithCkbMetadata<T>> {
  const startedAt = performance.now();
  return withCkbMetadata(await run(), startedAt);
}
