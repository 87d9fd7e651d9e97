import { Inject, Injectable, Logger } from '@nestjs/common';
import type { CkbConfig } from '../config';
import { configToken } from '../config';
import { CkbMetrics } from './ckb.metrics';
import { CkbCallError, CkbPort } from './ckb.port';
import { CkbAvailability, CkbFailureReason, CkbHealthState, CkbState } from './ckb.types';
import { safeErrorText } from './mcp/ckb-error-text';
import { CkbStateStore } from './state/ckb-state.store';

export type CkbUnavailable = Extract<CkbAvailability, { available: false }>;
export type CkbRunResult<T> = { ok: true; value: T } | { ok: false; availability: CkbUnavailable };

/** CKB as /health shows it. */
export interface CkbHealthView {
  state: CkbHealthState;
  reason?: string;
  last_error?: string;
  cooldown_remaining_s?: number;
  checked_at?: string;
}

// The seed's schema bounds ckb_cooldown_remaining_s to 0..60.
const MAX_REPORTED_COOLDOWN_S = 60;

/**
 * The circuit breaker in front of CKB (seed 001, SPEC §8): a timeout, MCP error or failed probe opens
 * a cooldown in the shared state during which CKB is not called; after it, the next use probes first
 * (half-open). The state is shared through `CkbStateStore`, so the server and CLI runs agree.
 */
@Injectable()
export class CkbCircuit {
  private readonly logger = new Logger('CkbCircuit');
  private probing?: Promise<CkbAvailability>;
  // Known in this process at once (the shared state is written asynchronously), so concurrent callers
  // that raced a probe or a failure learn of it.
  private probesFinished = 0;
  private lastProbe?: CkbAvailability;
  private lastFailure?: { availability: CkbUnavailable; at: number };

  constructor(
    @Inject(configToken('ckb')) private readonly config: CkbConfig,
    private readonly ckb: CkbPort,
    private readonly store: CkbStateStore,
    private readonly metrics: CkbMetrics,
  ) {}

  /** Runs `work` against CKB unless it is disabled or cooling down; a failure opens the cooldown. */
  async run<T>(work: (ckb: CkbPort) => Promise<T>): Promise<CkbRunResult<T>> {
    const probesSeen = this.probesFinished;
    const gate = await this.gate();
    if ('blocked' in gate) return { ok: false, availability: gate.blocked };
    if (gate.state.available === false) {
      const probed = await this.probeOnce(probesSeen);
      if (!probed.available) return { ok: false, availability: probed };
    }
    try {
      const value = await work(this.ckb);
      // A call that was under way when another one opened the cooldown must not close it.
      if (!this.ownCooldown()) await this.recordSuccess(gate.state);
      return { ok: true, value };
    } catch (error) {
      // Nor does its failure open a second cooldown: it is part of the same outage.
      const current = this.ownCooldown();
      return { ok: false, availability: current ?? (await this.recordFailure(error)) };
    }
  }

  /** Health probe (`tools/list`), skipped while disabled or cooling down; concurrent probes share one call. */
  async probe(): Promise<CkbAvailability> {
    const probesSeen = this.probesFinished;
    const gate = await this.gate();
    if ('blocked' in gate) return gate.blocked;
    return this.probeOnce(probesSeen);
  }

  async healthView(): Promise<CkbHealthView> {
    const gate = await this.gate();
    if ('blocked' in gate) {
      const { reason, lastError, cooldownRemainingSeconds } = gate.blocked;
      return {
        state: reason === 'disabled' ? 'disabled' : 'cooldown',
        reason,
        ...(lastError ? { last_error: lastError } : {}),
        ...(cooldownRemainingSeconds !== undefined ? { cooldown_remaining_s: cooldownRemainingSeconds } : {}),
      };
    }
    const { state } = gate;
    const view: CkbHealthView = { state: state.available === null ? 'unknown' : state.available ? 'up' : 'down' };
    if (state.available === false && state.reason) view.reason = state.reason;
    if (state.available === false && state.lastError) view.last_error = state.lastError;
    if (state.checkedAt) view.checked_at = new Date(state.checkedAt).toISOString();
    return view;
  }

  private async gate(): Promise<{ blocked: CkbUnavailable } | { state: CkbState }> {
    if (!this.config.enabled) {
      this.metrics.observeState('disabled');
      return { blocked: { available: false, reason: 'disabled' } };
    }
    const state = await this.store.read();
    const remainingMs =
      state.available === false && state.lastFailureAt !== null
        ? state.lastFailureAt + this.config.cooldownSeconds * 1000 - Date.now()
        : 0;
    if (remainingMs <= 0) {
      this.metrics.observeState(state.available ? 'up' : state.available === false ? 'down' : 'unknown');
      return { state };
    }
    this.metrics.observeState('cooldown');
    const blocked: CkbUnavailable = {
      available: false,
      reason: 'cooldown',
      cooldownRemainingSeconds: Math.min(MAX_REPORTED_COOLDOWN_S, Math.ceil(remainingMs / 1000)),
    };
    if (state.lastError) blocked.lastError = state.lastError;
    return { blocked };
  }

  /** One probe at a time; a caller whose state read predates a finished probe takes that probe's answer. */
  private probeOnce(probesSeen: number): Promise<CkbAvailability> {
    if (this.probesFinished !== probesSeen && this.lastProbe) return Promise.resolve(this.lastProbe);
    this.probing ??= this.probeNow().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  private async probeNow(): Promise<CkbAvailability> {
    const started = process.hrtime.bigint();
    const elapsedSeconds = (): number => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      await this.ckb.listTools();
      this.metrics.probeFinished('up', elapsedSeconds());
      await this.recordSuccess(await this.store.read());
      return this.probeResult({ available: true });
    } catch (error) {
      this.metrics.probeFinished('down', elapsedSeconds());
      return this.probeResult(await this.recordFailure(error, 'health_check_failed'));
    }
  }

  /** The failure this process recorded, while its cooldown lasts. */
  private ownCooldown(): CkbUnavailable | undefined {
    const failure = this.lastFailure;
    const cooling = failure !== undefined && Date.now() - failure.at < this.config.cooldownSeconds * 1000;
    return cooling ? failure.availability : undefined;
  }

  private probeResult(result: CkbAvailability): CkbAvailability {
    this.lastProbe = result;
    this.probesFinished += 1;
    return result;
  }

  private async recordSuccess(previous: CkbState): Promise<void> {
    this.metrics.observeState('up');
    if (previous.available === true) return;
    await this.save({ available: true, lastFailureAt: null, reason: null, lastError: null, checkedAt: Date.now() });
  }

  private async recordFailure(error: unknown, fallback: CkbFailureReason = 'mcp_error'): Promise<CkbUnavailable> {
    const reason = error instanceof CkbCallError ? error.reason : fallback;
    const lastError = safeErrorText(error);
    const now = Date.now();
    this.lastFailure = { availability: { available: false, reason, lastError }, at: now };
    await this.save({ available: false, lastFailureAt: now, reason, lastError, checkedAt: now });
    if (this.config.cooldownSeconds > 0) this.metrics.cooldownEntered(reason);
    this.metrics.observeState(this.config.cooldownSeconds > 0 ? 'cooldown' : 'down');
    return { available: false, reason, lastError };
  }

  /** A state that cannot be shared (unwritable DATA_DIR) must not fail the request that learnt it. */
  private async save(state: CkbState): Promise<void> {
    try {
      await this.store.write(state);
    } catch (error) {
      this.logger.warn(`could not save the CKB state: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
