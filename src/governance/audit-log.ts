import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Logger as PinoLogger } from 'pino';
import type { Counter } from 'prom-client';
import type { Door } from '../capabilities/capability';
import type { AccountContext } from '../common/auth/account';
import { AppException } from '../common/errors/app.exception';
import { isRecord } from '../common/http/json-inspection';
import { ROOT_LOGGER } from '../logging/logging.module';
import { MetricsService } from '../metrics/metrics.service';
import { currentTraceId } from '../tracing/trace-ids';
import { AuditTrail } from './audit-trail';

/** What the policy said: run it, refuse it, or (chat) hand it to the client to confirm. */
export type AuditDecision = 'allowed' | 'denied' | 'confirm';

/**
 * How the call ended: `ok`; `tool_error` (it ran and its tool reported a failure); `rejected` (a 4xx:
 * invalid input, unknown network, a refused action); `failed` (a 5xx); `not_run` (denied, or returned to
 * the client to confirm).
 */
export type AuditOutcome = 'ok' | 'tool_error' | 'rejected' | 'failed' | 'not_run';

export interface AuditEntry {
  principal: AccountContext;
  door: Door;
  capability: string;
  knId?: string;
  decision: AuditDecision;
  outcome: AuditOutcome;
  errorCode?: string;
  seconds: number;
  requestId?: string;
  /** Only the names and sizes are written, never a value. */
  arguments: unknown;
}

// A tool call's arguments are bounded by the body limit; the line that describes them is bounded here.
const MAX_ARGUMENT_NAMES = 64;

/**
 * The one audit stream (SPEC §12): a line per capability call at every door — who (account, type, API
 * key), where (door), what (capability, kn_id), the policy's decision, the outcome and its error code,
 * how long, the request and trace ids, and the argument names with their sizes in bytes — plus
 * `capability_calls_total{door,capability,decision,outcome}`.
 */
@Injectable()
export class AuditLog {
  private readonly logger = new Logger('Audit');
  private readonly calls: Counter<string>;

  constructor(
    metrics: MetricsService,
    @Optional() @Inject(ROOT_LOGGER) private readonly root?: PinoLogger,
    @Optional() private readonly trail?: AuditTrail,
  ) {
    this.calls = metrics.counter(
      'capability_calls_total',
      'Capability calls at every door by door, capability, policy decision and outcome',
      ['door', 'capability', 'decision', 'outcome'],
    );
  }

  /**
   * Runs one call that is not a capability (API key administration) and writes its audit line: allowed,
   * and `ok`, `rejected` (a 4xx) or `failed`.
   */
  async around<T>(
    entry: Omit<AuditEntry, 'decision' | 'outcome' | 'seconds' | 'errorCode'>,
    run: () => Promise<T>,
  ): Promise<T> {
    const started = process.hrtime.bigint();
    let outcome: AuditOutcome = 'failed';
    let errorCode: string | undefined;
    try {
      const value = await run();
      outcome = 'ok';
      return value;
    } catch (error) {
      if (error instanceof AppException) {
        errorCode = error.definition.code;
        outcome = error.status >= 500 ? 'failed' : 'rejected';
      }
      throw error;
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.record({ ...entry, decision: 'allowed', outcome, errorCode, seconds });
    }
  }

  record(entry: AuditEntry): void {
    const { principal, door, capability, decision, outcome } = entry;
    this.calls.inc({ door, capability, decision, outcome });
    const fields = {
      account_type: principal.type,
      key_id: principal.keyId,
      door,
      capability,
      kn_id: entry.knId || undefined,
      decision,
      outcome,
      error_code: entry.errorCode,
      duration_ms: Math.round(entry.seconds * 10000) / 10,
      request_id: entry.requestId,
    };
    this.trail?.add({ time: new Date().toISOString(), account_id: principal.id, ...fields });
    // The line (argument sizes included) is only built when it will be written.
    if (this.root && !this.root.isLevelEnabled(outcome === 'failed' ? 'warn' : 'info')) return;
    const line = {
      account_id: principal.id || undefined,
      ...fields,
      trace_id: currentTraceId(),
      arguments: argumentSizes(entry.arguments),
    };
    if (outcome === 'failed') this.logger.warn(line, 'capability call');
    else this.logger.log(line, 'capability call');
  }
}

/** `{name: bytes}` for each top-level argument (JSON size; a string's UTF-8 size). */
export function argumentSizes(args: unknown): Record<string, number> | undefined {
  if (!isRecord(args)) return undefined;
  const sizes: Record<string, number> = {};
  let count = 0;
  for (const [name, value] of Object.entries(args)) {
    if (count++ >= MAX_ARGUMENT_NAMES) break;
    sizes[name.slice(0, 64)] = sizeOf(value);
  }
  return sizes;
}

function sizeOf(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (value === undefined) return 0;
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '');
  } catch {
    return -1;
  }
}
