import { Global, Module } from '@nestjs/common';
import { WorkerPool } from '../common/workers/worker-pool';
import { configToken, KnConfig, UpstreamConfig } from '../config';
import { MetricsService } from '../metrics/metrics.service';
import { upstreamMetrics } from '../metrics/upstream-metrics';
import { EmbeddedKnowledgeNetwork } from './embedded/embedded-knowledge-network';
import { KnowledgeNetworkHealth } from './knowledge-network.health';
import { KnowledgeNetworkPort } from './knowledge-network.port';
import { KweaverKnowledgeNetwork } from './kweaver/kweaver-knowledge-network';

/** The one place that picks the knowledge-network adapter from KN_BACKEND. */
export function createKnowledgeNetwork(
  kn: KnConfig,
  upstream: UpstreamConfig,
  metrics: MetricsService,
  pool: WorkerPool,
): KnowledgeNetworkPort {
  return kn.backend === 'kweaver'
    ? new KweaverKnowledgeNetwork(upstream, upstreamMetrics(metrics))
    : new EmbeddedKnowledgeNetwork(kn, pool);
}

@Global()
@Module({
  providers: [
    {
      provide: KnowledgeNetworkPort,
      useFactory: createKnowledgeNetwork,
      inject: [configToken('kn'), configToken('upstream'), MetricsService, WorkerPool],
    },
    KnowledgeNetworkHealth,
  ],
  exports: [KnowledgeNetworkPort],
})
export class KnowledgeNetworkModule {}
