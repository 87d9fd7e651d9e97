/** Why CKB was not used for a request; the enum is fixed by seed 001 §1 (REQ-MCP-002). */
export const CKB_FALLBACK_REASONS = [
  'connection_timeout',
  'mcp_error',
  'health_check_failed',
  'cooldown',
  'disabled',
] as const;
export type CkbFallbackReason = (typeof CKB_FALLBACK_REASONS)[number];

/** The reasons a call or probe can fail with; `cooldown` and `disabled` are decided without calling. */
export type CkbFailureReason = Extract<CkbFallbackReason, 'connection_timeout' | 'mcp_error' | 'health_check_failed'>;

/** What every process (server, CLI runs) shares about CKB, so a cooldown holds across them. */
export interface CkbState {
  /** null until the first call or probe. */
  available: boolean | null;
  /** Epoch ms of the last failure; the cooldown runs from here. */
  lastFailureAt: number | null;
  reason: CkbFailureReason | null;
  lastError: string | null;
  /** Epoch ms of the last call or probe, successful or not. */
  checkedAt: number | null;
}

export const UNKNOWN_CKB_STATE: CkbState = {
  available: null,
  lastFailureAt: null,
  reason: null,
  lastError: null,
  checkedAt: null,
};

export type CkbAvailability =
  | { available: true }
  | {
      available: false;
      reason: CkbFallbackReason;
      lastError?: string;
      /** Only for `cooldown`. */
      cooldownRemainingSeconds?: number;
    };

/** The /health view of CKB. */
export type CkbHealthState = 'up' | 'down' | 'cooldown' | 'disabled' | 'unknown';
