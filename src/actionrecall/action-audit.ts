import { Injectable } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { CallMetrics, MetricsService } from '../metrics/metrics.service';
import { ActionRecallErrors } from './actionrecall.errors';

/** How one execution ended: ran (ok / the tool reported an error), refused before running, or failed. */
export type ActionOutcome = 'ok' | 'tool_error' | `refused:${string}` | 'failed';

/** Refusals with their own reason; other 4xx are `refused:not_found` or `refused:bad_request` (bounded labels). */
const REFUSAL_REASONS: ReadonlyMap<string, string> = new Map([
  [ActionRecallErrors.ActionDisabled.code, 'disabled'],
  [ActionRecallErrors.ActionApprovalRequired.code, 'approval_required'],
  [ActionRecallErrors.ActionApprovalPending.code, 'approval_pending'],
  [ActionRecallErrors.ActionDeclined.code, 'declined'],
  [ActionRecallErrors.ActionTriggerConditionNotMet.code, 'trigger_condition'],
  [ActionRecallErrors.ActionPreconditionFailed.code, 'precondition'],
  [ActionRecallErrors.InvalidActionArguments.code, 'invalid_arguments'],
]);

export function outcomeOfFailure(error: unknown): ActionOutcome {
  if (!(error instanceof AppException) || error.status >= 500) return 'failed';
  const reason = REFUSAL_REASONS.get(error.definition.code);
  if (reason) return `refused:${reason}`;
  return error.status === 404 ? 'refused:not_found' : 'refused:bad_request';
}

/**
 * execute_action's own counts, by how each execution ended (refusals by reason):
 * `action_executions_total{outcome}` and `action_execution_duration_seconds{outcome}`. Who called, from
 * which door, with which argument names, is the capability audit line every call writes.
 */
@Injectable()
export class ActionAudit {
  private readonly executions: CallMetrics;

  constructor(metrics: MetricsService) {
    this.executions = metrics.calls({
      total: 'action_executions_total',
      duration: 'action_execution_duration_seconds',
      what: 'execute_action executions',
      labels: ['outcome'],
    });
  }

  /** Runs one execution and counts it whatever happens; a success reports its own outcome. */
  async track<T extends { outcome: ActionOutcome }>(run: () => Promise<T>): Promise<T> {
    const started = process.hrtime.bigint();
    let outcome: ActionOutcome = 'failed';
    try {
      const result = await run();
      outcome = result.outcome;
      return result;
    } catch (error) {
      outcome = outcomeOfFailure(error);
      throw error;
    } finally {
      this.executions.record({ outcome }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }
}
