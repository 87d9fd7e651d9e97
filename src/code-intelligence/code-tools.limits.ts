import { NumericRange } from '../common/limits/numeric-range';
import type { CallDirection } from './code-tools.types';

// Argument bounds of the code tools (SPEC §8), declared once: the REST DTOs, the MCP tool schemas, the
// graph-rag CLI and the services' defaults all read them.

/** Characters in a graph-RAG query. */
export const CODE_QUERY_MAX_LENGTH = 1000;

/** Graph expansion hops of ci_graph_rag (0 = keyword search only). */
export const FUSION_DEPTH: NumericRange = { min: 0, max: 5, default: 1 };

/** Tokens of candidate content ci_graph_rag returns (~4 characters per token). */
export const TOKEN_BUDGET: NumericRange = { min: 100, max: 100000, default: 8000 };

/** A symbol for ci_call_chain: an identifier, optionally dotted (Class.method). */
export const SYMBOL_PATTERN = /^[A-Za-z_$][\w$.]*$/;
export const SYMBOL_MAX_LENGTH = 200;

/** Hops ci_call_chain follows. */
export const CALL_CHAIN_DEPTH: NumericRange = { min: 1, max: 5, default: 2 };

export const CALL_DIRECTIONS = ['callers', 'callees', 'both'] as const satisfies readonly CallDirection[];
