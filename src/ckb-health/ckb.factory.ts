import { CkbConfig, MetricsConfig, RedisConfig } from '../config';
import { SharedRedis } from '../common/redis/shared-redis';
import { MetricsService } from '../metrics/metrics.service';
import { CkbCircuit } from './ckb-circuit';
import { CkbMetrics } from './ckb.metrics';
import { CkbPort } from './ckb.port';
import { McpCkbClient } from './mcp/mcp-ckb-client';
import { createCkbStateStore } from './state/ckb-state.factory';

/** The CKB adapter: the MCP client (it reports `disabled` itself through the circuit when unconfigured). */
export function createCkbPort(config: CkbConfig): CkbPort {
  return new McpCkbClient(config);
}

export interface StandaloneCkb {
  circuit: CkbCircuit;
  /** Ends the CKB session and the shared-state connection. */
  close(): Promise<void>;
}

/**
 * The CKB circuit without Nest (the graph-rag CLI): the same port, state store and cooldown the module
 * wires, so a cooldown opened by the server holds for a CLI run and the other way round.
 */
export function createStandaloneCkb(config: CkbConfig, redisConfig: RedisConfig): StandaloneCkb {
  const metricsConfig: MetricsConfig = { enabled: false, processMetrics: false };
  const ckb = createCkbPort(config);
  const redis = new SharedRedis(redisConfig.url);
  const store = createCkbStateStore(config, redis);
  const circuit = new CkbCircuit(config, ckb, store, new CkbMetrics(new MetricsService(metricsConfig)));
  return {
    circuit,
    close: async () => {
      await Promise.all([ckb.close(), store.close(), redis.close()]);
    },
  };
}
