import { Module } from '@nestjs/common';
import { configToken } from '../config';
import { SharedRedis } from '../common/redis/shared-redis';
import { CkbCircuit } from './ckb-circuit';
import { CkbHealthIndicator } from './ckb-health.indicator';
import { createCkbPort } from './ckb.factory';
import { CkbMetrics } from './ckb.metrics';
import { CkbPort } from './ckb.port';
import { CkbProbeScheduler } from './ckb-probe.scheduler';
import { createCkbStateStore } from './state/ckb-state.factory';
import { CkbStateStore } from './state/ckb-state.store';

/**
 * CKB health (SPEC §8, seed 001): the CKB port and its MCP adapter behind a cooldown circuit whose state
 * is shared across processes, the `/health` entry, the background probe and the `ckb_*` metrics.
 * Features reach CKB only through the exported `CkbCircuit`.
 */
@Module({
  providers: [
    { provide: CkbPort, useFactory: createCkbPort, inject: [configToken('ckb')] },
    { provide: CkbStateStore, useFactory: createCkbStateStore, inject: [configToken('ckb'), SharedRedis] },
    CkbMetrics,
    CkbCircuit,
    CkbHealthIndicator,
    CkbProbeScheduler,
  ],
  exports: [CkbCircuit],
})
export class CkbHealthModule {}
