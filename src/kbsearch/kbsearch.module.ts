import { Module } from '@nestjs/common';
import { WorkerPool } from '../common/workers/worker-pool';
import { configToken, KbConfig, KnConfig } from '../config';
import { MetricsService } from '../metrics/metrics.service';
import { upstreamMetrics } from '../metrics/upstream-metrics';
import { EmbeddedKnowledgeBase } from './embedded/embedded-knowledge-base';
import { KnowledgeBasePort } from './kb.types';
import { KbSearchService } from './kbsearch.service';
import { KnowledgeBaseHealth } from './kbsearch.health';
import { KB_CAPABILITIES } from './capabilities';
import { KbDoor } from './capabilities/kb-door';
import { capabilityBundle } from '../capabilities/capability-catalog';
import { capabilityControllers } from '../capabilities/capability-rest';
import { WeKnoraKnowledgeBase } from './weknora/weknora-knowledge-base';

/** The one place that picks the knowledge-base adapter from KB_BACKEND. */
export function createKnowledgeBase(
  kb: KbConfig,
  kn: KnConfig,
  metrics: MetricsService,
  pool: WorkerPool,
): KnowledgeBasePort {
  return kb.backend === 'weknora'
    ? new WeKnoraKnowledgeBase(kb, upstreamMetrics(metrics))
    : new EmbeddedKnowledgeBase(kb, kn, pool);
}

/** Knowledge-base search (SPEC §9, seed 003): two capabilities, served at every door, over one service. */
@Module({
  controllers: capabilityControllers('knowledge base', KB_CAPABILITIES),
  providers: [
    {
      provide: KnowledgeBasePort,
      useFactory: createKnowledgeBase,
      inject: [configToken('kb'), configToken('kn'), MetricsService, WorkerPool],
    },
    KbSearchService,
    KnowledgeBaseHealth,
    KbDoor,
    capabilityBundle('kb', KB_CAPABILITIES),
  ],
  exports: [KbSearchService],
})
export class KbSearchModule {}
