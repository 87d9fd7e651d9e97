import { CkbConfig } from '../config';
import { CkbCircuit } from './ckb-circuit';
import { CkbPort } from './ckb.port';
import { CkbProbeScheduler } from './ckb-probe.scheduler';
import { CkbStateStore } from './state/ckb-state.store';

function scheduler(overrides: Partial<CkbConfig>) {
  const circuit = { probe: jest.fn(async () => ({ available: true as const })) };
  const ckb = { close: jest.fn(async () => undefined) };
  const store = { close: jest.fn(async () => undefined) };
  const config = { enabled: true, probeIntervalSeconds: 30, ...overrides } as CkbConfig;
  const instance = new CkbProbeScheduler(config, circuit as unknown as CkbCircuit, ckb as unknown as CkbPort, store as unknown as CkbStateStore);
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

  it.each([{ enabled: false }, { probeIntervalSeconds: 0 }])('does not probe when %j', (overrides) => {
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
