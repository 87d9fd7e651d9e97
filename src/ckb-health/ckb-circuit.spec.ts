import { CkbConfig } from '../config';
import { MetricsService } from '../metrics/metrics.service';
import { CkbCircuit } from './ckb-circuit';
import { CkbMetrics } from './ckb.metrics';
import { CkbCallError, CkbPort } from './ckb.port';
import { CkbState, UNKNOWN_CKB_STATE } from './ckb.types';
import { CkbStateStore } from './state/ckb-state.store';

class MemoryStore extends CkbStateStore {
  state: CkbState = { ...UNKNOWN_CKB_STATE };
  failWrites = false;
  read = jest.fn(async () => ({ ...this.state }));
  write = jest.fn(async (state: CkbState) => {
    if (this.failWrites) throw new Error('disk full');
    this.state = { ...state };
  });
  close = jest.fn(async () => undefined);
}

class FakeCkb extends CkbPort {
  listTools = jest.fn(async () => ['searchSymbols']);
  callTool = jest.fn(async () => ({ symbols: [] }) as unknown);
  close = jest.fn(async () => undefined);
}

const config = (overrides: Partial<CkbConfig> = {}): CkbConfig => ({
  enabled: true,
  server: { kind: 'stdio', command: 'ckb', args: ['mcp'] },
  timeoutMs: 5000,
  cooldownSeconds: 60,
  probeIntervalSeconds: 30,
  simulateUnavailable: false,
  mockDelayMs: 0,
  codeRoot: undefined,
  dataDir: 'data',
  redisUrl: undefined,
  ...overrides,
});

function setup(overrides: Partial<CkbConfig> = {}) {
  const store = new MemoryStore();
  const ckb = new FakeCkb();
  const metrics = new MetricsService({ enabled: true, processMetrics: false });
  const circuit = new CkbCircuit(config(overrides), ckb, store, new CkbMetrics(metrics));
  return { store, ckb, circuit, metrics };
}

describe('CkbCircuit', () => {
  afterEach(() => jest.useRealTimers());

  it('runs the work and records CKB as available', async () => {
    const { circuit, store } = setup();
    await expect(circuit.run(async () => 'graph')).resolves.toEqual({ ok: true, value: 'graph' });
    expect(store.state).toMatchObject({ available: true, reason: null });
  });

  it('reports disabled without touching CKB or the store', async () => {
    const { circuit, ckb, store } = setup({ enabled: false });
    const work = jest.fn();
    await expect(circuit.run(work)).resolves.toEqual({ ok: false, availability: { available: false, reason: 'disabled' } });
    expect(work).not.toHaveBeenCalled();
    expect(ckb.listTools).not.toHaveBeenCalled();
    expect(store.read).not.toHaveBeenCalled();
  });

  it('turns a failure into its reason, then a cooldown whose remaining seconds decrease', async () => {
    jest.useFakeTimers({ now: new Date('2026-01-18T00:00:00Z') });
    const { circuit, store } = setup();
    const timeout = new CkbCallError('connection_timeout', 'Connection timeout after 5000ms');
    const failed = await circuit.run(async () => Promise.reject(timeout));
    expect(failed).toEqual({ ok: false, availability: { available: false, reason: 'connection_timeout', lastError: 'Connection timeout after 5000ms' } });
    expect(store.state).toMatchObject({ available: false, reason: 'connection_timeout', lastFailureAt: Date.now() });

    const work = jest.fn();
    jest.advanceTimersByTime(15000);
    const first = await circuit.run(work);
    jest.advanceTimersByTime(20000);
    const second = await circuit.run(work);
    expect(first).toEqual({
      ok: false,
      availability: { available: false, reason: 'cooldown', cooldownRemainingSeconds: 45, lastError: 'Connection timeout after 5000ms' },
    });
    expect(second).toMatchObject({ availability: { reason: 'cooldown', cooldownRemainingSeconds: 25 } });
    expect(work).not.toHaveBeenCalled();
  });

  it('probes first once the cooldown is over (half-open) and closes the circuit on success', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { circuit, store, ckb } = setup();
    store.state = { available: false, lastFailureAt: 1_000_000 - 61_000, reason: 'mcp_error', lastError: 'boom', checkedAt: null };
    await expect(circuit.run(async () => 'ok')).resolves.toEqual({ ok: true, value: 'ok' });
    expect(ckb.listTools).toHaveBeenCalledTimes(1);
    expect(store.state).toMatchObject({ available: true, lastError: null });
  });

  it('reports health_check_failed when the half-open probe fails, and starts a new cooldown', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { circuit, store, ckb } = setup();
    store.state = { available: false, lastFailureAt: 1_000_000 - 61_000, reason: 'mcp_error', lastError: 'boom', checkedAt: null };
    ckb.listTools.mockRejectedValueOnce(new Error('pipe closed'));
    const work = jest.fn();
    const result = await circuit.run(work);
    expect(result).toEqual({ ok: false, availability: { available: false, reason: 'health_check_failed', lastError: 'pipe closed' } });
    expect(work).not.toHaveBeenCalled();
    expect(store.state.lastFailureAt).toBe(1_000_000);
  });

  it('shares one probe between concurrent callers', async () => {
    const { circuit, ckb } = setup();
    await Promise.all([circuit.probe(), circuit.probe(), circuit.probe()]);
    expect(ckb.listTools).toHaveBeenCalledTimes(1);
  });

  it('still answers when the state cannot be saved', async () => {
    const { circuit, store } = setup();
    store.failWrites = true;
    await expect(circuit.run(async () => Promise.reject(new CkbCallError('mcp_error', 'bad')))).resolves.toMatchObject({
      ok: false,
      availability: { reason: 'mcp_error' },
    });
  });

  it('describes each state for /health and the ckb_state gauge', async () => {
    jest.useFakeTimers({ now: 2_000_000 });
    const { circuit, store, metrics } = setup();
    await expect(circuit.healthView()).resolves.toEqual({ state: 'unknown' });
    store.state = { available: false, lastFailureAt: 2_000_000 - 10_000, reason: 'connection_timeout', lastError: 'slow', checkedAt: 2_000_000 - 10_000 };
    await expect(circuit.healthView()).resolves.toEqual({ state: 'cooldown', reason: 'cooldown', last_error: 'slow', cooldown_remaining_s: 50 });
    expect(await metrics.registry.getSingleMetricAsString('ckb_state')).toMatch(/^ckb_state -1$/m);
    jest.advanceTimersByTime(60_000);
    await expect(circuit.healthView()).resolves.toMatchObject({ state: 'down', reason: 'connection_timeout', last_error: 'slow' });
  });
});
