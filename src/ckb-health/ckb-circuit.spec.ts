import { MetricsService } from '../metrics/metrics.service';
import { CkbCircuit } from './ckb-circuit';
import { CkbMetrics } from './ckb.metrics';
import { CkbCallError, CkbPort } from './ckb.port';
import { CkbState, UNKNOWN_CKB_STATE } from './ckb.types';
import { CkbStateStore } from './state/ckb-state.store';
import { testConfig } from '../../test/support/unit/config';
import { mockPort } from '../../test/support/unit/mocks';

/** A state store in memory; `failWrites` makes every write fail as a full disk would. */
function memoryStore() {
  const memory: { state: CkbState; failWrites: boolean } = { state: { ...UNKNOWN_CKB_STATE }, failWrites: false };
  const store = mockPort(CkbStateStore, {
    read: async () => ({ ...memory.state }),
    write: async (state: CkbState) => {
      if (memory.failWrites) throw new Error('disk full');
      memory.state = { ...state };
    },
    close: async () => undefined,
  });
  return { store, memory };
}

/** CKB configured as a stdio server (`ckb mcp`), with the given variables on top. */
/** A failure whose cooldown (CKB_COOLDOWN_S 1) ran out 5 s ago: the next call probes. */
function cooledDownFailure(): CkbState {
  const expired = Date.now() - 5000;
  return { available: false, lastFailureAt: expired, reason: 'mcp_error', lastError: 'x', checkedAt: expired };
}

function setup(env: Record<string, string> = {}) {
  const config = testConfig({ CKB_COMMAND: 'ckb mcp', ...env });
  const { store, memory } = memoryStore();
  const ckb = mockPort(CkbPort, {
    listTools: async () => ['searchSymbols'],
    callTool: async () => ({ symbols: [] }),
    close: async () => undefined,
  });
  const metrics = new MetricsService(config.metrics);
  const circuit = new CkbCircuit(config.ckb, ckb, store, new CkbMetrics(metrics));
  return { store, memory, ckb, circuit, metrics };
}

describe('CkbCircuit', () => {
  afterEach(() => jest.useRealTimers());

  it('runs the work and records CKB as available', async () => {
    const { circuit, memory } = setup();
    await expect(circuit.run(async () => 'graph')).resolves.toEqual({ ok: true, value: 'graph' });
    expect(memory.state).toMatchObject({ available: true, reason: null });
  });

  it('reports disabled without touching CKB or the store', async () => {
    const { circuit, ckb, store } = setup({ CKB_ENABLED: 'false' });
    const work = jest.fn();
    await expect(circuit.run(work)).resolves.toEqual({
      ok: false,
      availability: { available: false, reason: 'disabled' },
    });
    expect(work).not.toHaveBeenCalled();
    expect(ckb.listTools).not.toHaveBeenCalled();
    expect(store.read).not.toHaveBeenCalled();
  });

  it('turns a failure into its reason, then a cooldown whose remaining seconds decrease', async () => {
    jest.useFakeTimers({ now: new Date('2026-01-18T00:00:00Z') });
    const { circuit, memory } = setup();
    const timeout = new CkbCallError('connection_timeout', 'Connection timeout after 5000ms');
    const failed = await circuit.run(async () => Promise.reject(timeout));
    expect(failed).toEqual({
      ok: false,
      availability: { available: false, reason: 'connection_timeout', lastError: 'Connection timeout after 5000ms' },
    });
    expect(memory.state).toMatchObject({ available: false, reason: 'connection_timeout', lastFailureAt: Date.now() });

    const work = jest.fn();
    jest.advanceTimersByTime(15000);
    const first = await circuit.run(work);
    jest.advanceTimersByTime(20000);
    const second = await circuit.run(work);
    expect(first).toEqual({
      ok: false,
      availability: {
        available: false,
        reason: 'cooldown',
        cooldownRemainingSeconds: 45,
        lastError: 'Connection timeout after 5000ms',
      },
    });
    expect(second).toMatchObject({ availability: { reason: 'cooldown', cooldownRemainingSeconds: 25 } });
    expect(work).not.toHaveBeenCalled();
  });

  /** A failure 61 s before the fake clock's 1,000,000 ms: the 60 s cooldown has just ended. */
  const COOLDOWN_OVER = {
    available: false,
    lastFailureAt: 1_000_000 - 61_000,
    reason: 'mcp_error' as const,
    lastError: 'boom',
    checkedAt: null,
  };

  it('probes first once the cooldown is over (half-open) and closes the circuit on success', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { circuit, memory, ckb } = setup();
    memory.state = { ...COOLDOWN_OVER };
    await expect(circuit.run(async () => 'ok')).resolves.toEqual({ ok: true, value: 'ok' });
    expect(ckb.listTools).toHaveBeenCalledTimes(1);
    expect(memory.state).toMatchObject({ available: true, lastError: null });
  });

  it('reports health_check_failed when the half-open probe fails, and starts a new cooldown', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { circuit, memory, ckb } = setup();
    memory.state = { ...COOLDOWN_OVER };
    ckb.listTools.mockRejectedValueOnce(new Error('pipe closed'));
    const work = jest.fn();
    const result = await circuit.run(work);
    expect(result).toEqual({
      ok: false,
      availability: { available: false, reason: 'health_check_failed', lastError: 'pipe closed' },
    });
    expect(work).not.toHaveBeenCalled();
    expect(memory.state.lastFailureAt).toBe(1_000_000);
  });

  it('shares one probe between concurrent callers', async () => {
    const { circuit, ckb } = setup();
    await Promise.all([circuit.probe(), circuit.probe(), circuit.probe()]);
    expect(ckb.listTools).toHaveBeenCalledTimes(1);
  });

  it('still answers when the state cannot be saved', async () => {
    const { circuit, memory } = setup();
    memory.failWrites = true;
    await expect(circuit.run(async () => Promise.reject(new CkbCallError('mcp_error', 'bad')))).resolves.toMatchObject({
      ok: false,
      availability: { reason: 'mcp_error' },
    });
  });

  it('describes each state for /health and the agent_retrieval_ckb_state gauge', async () => {
    jest.useFakeTimers({ now: 2_000_000 });
    const { circuit, memory, metrics } = setup();
    await expect(circuit.healthView()).resolves.toEqual({ state: 'unknown' });
    memory.state = {
      available: false,
      lastFailureAt: 2_000_000 - 10_000,
      reason: 'connection_timeout',
      lastError: 'slow',
      checkedAt: 2_000_000 - 10_000,
    };
    await expect(circuit.healthView()).resolves.toEqual({
      state: 'cooldown',
      reason: 'cooldown',
      last_error: 'slow',
      cooldown_remaining_s: 50,
    });
    expect(await metrics.registry.getSingleMetricAsString('agent_retrieval_ckb_state')).toMatch(
      /^agent_retrieval_ckb_state -1$/m,
    );
    jest.advanceTimersByTime(60_000);
    await expect(circuit.healthView()).resolves.toMatchObject({
      state: 'down',
      reason: 'connection_timeout',
      last_error: 'slow',
    });
  });

  it('opens one cooldown when calls under way together fail together', async () => {
    const { circuit, memory, metrics } = setup();
    await circuit.run(async () => 'warm');
    const crash = new CkbCallError('mcp_error', 'backend crashed');
    const results = await Promise.all([1, 2, 3].map(() => circuit.run(async () => Promise.reject(crash))));
    results.forEach((result) => expect(result).toMatchObject({ ok: false, availability: { reason: 'mcp_error' } }));
    expect(memory.state).toMatchObject({ available: false, reason: 'mcp_error' });
    expect(await metrics.registry.getSingleMetricAsString('agent_retrieval_ckb_cooldowns_total')).toMatch(
      /^agent_retrieval_ckb_cooldowns_total\{reason="mcp_error"\} 1$/m,
    );
  });

  it('takes the answer of a probe that finished after its state read instead of probing again', async () => {
    const { circuit, memory, store, ckb } = setup({ CKB_COOLDOWN_S: '1' });
    memory.state = cooledDownFailure();
    let release = (): void => undefined;
    const stale = { ...memory.state };
    jest.mocked(store.read).mockImplementationOnce(() => new Promise((resolve) => (release = () => resolve(stale))));
    const late = circuit.run(async () => 'late');
    await expect(circuit.run(async () => 'first')).resolves.toEqual({ ok: true, value: 'first' });
    release();
    await expect(late).resolves.toEqual({ ok: true, value: 'late' });
    expect(ckb.listTools).toHaveBeenCalledTimes(1);
    expect(memory.state).toMatchObject({ available: true });
  });

  it('keeps the cooldown a failure opened while a slower call was still succeeding', async () => {
    const { circuit, memory } = setup({ CKB_COOLDOWN_S: '1' });
    memory.state = cooledDownFailure();
    let finish = (): void => undefined;
    const slow = circuit.run(() => new Promise<string>((resolve) => (finish = () => resolve('slow'))));
    while (memory.state.available !== true) await new Promise((resolve) => setImmediate(resolve));
    await circuit.run(async () => Promise.reject(new CkbCallError('mcp_error', 'backend crashed')));
    finish();
    await expect(slow).resolves.toEqual({ ok: true, value: 'slow' });
    expect(memory.state).toMatchObject({ available: false, reason: 'mcp_error' });
  });
});
