import { Injectable, Logger } from '@nestjs/common';
import { ANONYMOUS } from '../common/auth/account';
import { currentRequestContext } from '../common/context/request-context';
import { AppException } from '../common/errors/app.exception';
import { InstanceIdentity } from '../knowledge-network/knowledge-network.types';
import { CallMetrics, MetricsService } from '../metrics/metrics.service';
import { ActionRecallErrors } from './actionrecall.errors';

/** How one execution ended: ran (ok / the tool reported an error), refused before running, or failed. */
export type ActionOutcome = 'ok' | 'tool_error' | `refused:${string}` | 'failed';

/** Refusals with their own reason; other 4xx are `refused:not_found` or `refused:bad_request` (bounded labels). */
const REFUSAL_REASONS: ReadonlyMap<string, string> = new Map([
  [ActionRecallErrors.ActionDisabled.code, 'disabled'],
  [ActionRecallErrors.ActionApprovalRequired.code, 'approval_required'],
  [ActionRecallErrors.ActionTriggerConditionNotMet.code, 'trigger_condition'],
  [ActionRecallErrors.ActionPreconditionFailed.code, 'precondition'],
  [ActionRecallErrors.InvalidActionArguments.code, 'invalid_arguments'],
]);

// An identity is a primary-key map; a larger one is not logged verbatim.
const MAX_LOGGED_IDENTITY = 512;

export function outcomeOfFailure(error: unknown): ActionOutcome {
  if (!(error instanceof AppException) || error.status >= 500) return 'failed';
  const reason = REFUSAL_REASONS.get(error.definition.code);
  if (reason) return `refused:${reason}`;
  return error.status === 404 ? 'refused:not_found' : 'refused:bad_request';
}

export interface AuditEntry {
  knId: string;
  atId: string;
  identity?: InstanceIdentity;
}

/**
 * The audit trail of execute_action: one `ActionAudit` log line per execution (account, kn_id, at_id,
 * instance identity, outcome, duration — never the argument values, which may hold secrets) and the
 * `action_executions_total{outcome}` / `action_execution_duration_seconds{outcome}` metrics.
 */
@Injectable()
export class ActionAudit {
  private readonly logger = new Logger('ActionAudit');
  private readonly executions: CallMetrics;

  constructor(metrics: MetricsService) {
    this.executions = metrics.calls({
      total: 'action_executions_total',
      duration: 'action_execution_duration_seconds',
      what: 'execute_action executions',
      labels: ['outcome'],
    });
  }

  /** Runs one execution and records it whatever happens; a success reports its own outcome. */
  async track<T extends { outcome: ActionOutcome }>(entry: AuditEntry, run: () => Promise<T>): Promise<T> {
    const started = process.hrtime.bigint();
    let outcome: ActionOutcome = 'failed';
    let errorCode: string | undefined;
    try {
      const result = await run();
      outcome = result.outcome;
      return result;
    } catch (error) {
      outcome = outcomeOfFailure(error);
      if (error instanceof AppException) errorCode = error.definition.code;
      throw error;
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.executions.record({ outcome }, seconds);
      this.log(entry, outcome, seconds, errorCode);
    }
  }

  private log(entry: AuditEntry, outcome: ActionOutcome, seconds: number, errorCode?: string): void {
    const account = currentRequestContext()?.account ?? ANONYMOUS;
    const identity = JSON.stringify(entry.identity ?? null);
    const line = {
      account_id: account.id,
      account_type: account.type,
      kn_id: entry.knId,
      at_id: entry.atId,
      instance_identity:
        identity.length <= MAX_LOGGED_IDENTITY ? entry.identity : `${identity.slice(0, MAX_LOGGED_IDENTITY)}…`,
      outcome,
      duration_ms: Math.round(seconds * 10000) / 10,
      error_code: errorCode,
    };
    if (outcome === 'failed') this.logger.warn(line, 'action execution');
    else this.logger.log(line, 'action execution');
  }
}
