import { CkbFailureReason, CkbState, UNKNOWN_CKB_STATE } from '../ckb.types';

const FAILURE_REASONS: readonly string[] = ['connection_timeout', 'mcp_error', 'health_check_failed'];

const numberOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** Reads a stored state defensively: another process (or a person) may have written anything there. */
export function parseCkbState(text: string | null | undefined): CkbState {
  if (!text) return { ...UNKNOWN_CKB_STATE };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ...UNKNOWN_CKB_STATE };
  }
  if (!raw || typeof raw !== 'object') return { ...UNKNOWN_CKB_STATE };
  const value = raw as Record<string, unknown>;
  return {
    available: typeof value.available === 'boolean' ? value.available : null,
    lastFailureAt: numberOrNull(value.lastFailureAt),
    reason: FAILURE_REASONS.includes(value.reason as string) ? (value.reason as CkbFailureReason) : null,
    lastError: typeof value.lastError === 'string' ? value.lastError.slice(0, 500) : null,
    checkedAt: numberOrNull(value.checkedAt),
  };
}
