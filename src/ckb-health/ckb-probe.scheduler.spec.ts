import { CkbCircuit } from './ckb-circuit';
import { CkbPort } from './ckb.port';
import { CkbProbeScheduler } from './ckb-probe.scheduler';
import { CkbStateStore } from './state/ckb-state.store';
import { testConfig } from '../../test/support/unit/config';
import { mockPort } from '../../test/support/unit/mocks';

/** A scheduler for CKB over stdio, probing every 30 s unless `env` says otherwise. */
function scheduler(env: Record<string, string | undefined>) {
  const circuit = { probe: jest.fn(async () => ({ available: true as const })) };
  const ckb = mockPort(CkbPort, { close: async () => undefined });
  const store = mockPort(CkbStateStore, { close: async () => undefined });
  const config = testConfig({ CKB_COMMAND: 'ckb mcp', CKB_PROBE_INTERVAL_S: '30', ...env }).ckb;
  const instance = new CkbProbeScheduler(config, circuit as unknown as CkbCircuit, ckb, store);
  return { instance, circuit, ckb, store };
}

describe('CkbProbeScheduler', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('probes at start and then every interval, until the module is destroyed', () => {
    const { instance, circuit } = scheduler({});
    instance.onApplicationBootstrap();
    expect(circuit.probe).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(60_000);
    expect(circuit.probe).toHaveBeenCalledTimes(3);
    instance.onModuleDestroy();
    jest.advanceTimersByTime(60_000);
    expect(circuit.probe).toHaveBeenCalledTimes(3);
  });

  it.each([{ CKB_ENABLED: 'false' }, { CKB_PROBE_INTERVAL_S: '0' }])('does not probe when %j', (overrides) => {
    const { instance, circuit } = scheduler(overrides);
    instance.onApplicationBootstrap();
    jest.advanceTimersByTime(120_000);
    expect(circuit.probe).not.toHaveBeenCalled();
  });

  it('closes the CKB session and the state store on shutdown', async () => {
    const { instance, ckb, store } = scheduler({});
    await instance.onApplicationShutdown();
    expect(ckb.close).toHaveBeenCalled();
    expect(store.close).toHaveBeenCalled();
  });
});
