import { Global, Logger, Module } from '@nestjs/common';
import { WorkerPool } from '../common/workers/worker-pool';
import { configToken, KbConfig, KnConfig, UpstreamConfig } from '../config';
import { MetricsService } from '../metrics/metrics.service';
import { upstreamMetrics } from '../metrics/upstream-metrics';
import { EmbeddedKnowledgeNetwork } from './embedded/embedded-knowledge-network';
import { RecallChannels } from './embedded/recall-channels';
import { recallMetrics } from './recall-metrics';
import { KnowledgeNetworkHealth } from './knowledge-network.health';
import { KnowledgeNetworkPort } from './knowledge-network.port';
import { KweaverKnowledgeNetwork } from './kweaver/kweaver-knowledge-network';

/** The one place that picks the knowledge-network adapter from KN_BACKEND. */
export function createKnowledgeNetwork(
  kn: KnConfig,
  upstream: UpstreamConfig,
  metrics: MetricsService,
  pool: WorkerPool,
  kb: KbConfig,
): KnowledgeNetworkPort {
  if (kn.backend === 'kweaver') {
    // bkn-backend ranks KWeaver searches itself; its contract takes no channel weight and no rerank switch.
    if (kn.hybrid.rerankMode !== 'off' || kn.hybrid.vectorWeight !== 0.5)
      new Logger('KnowledgeNetwork').warn('HYBRID_VECTOR_WEIGHT and RERANK_MODE apply to the embedded backend only');
    return new KweaverKnowledgeNetwork(upstream, upstreamMetrics(metrics));
  }
  if (kn.hybrid.rerankMode !== 'off' && !kb.rerank)
    throw new Error(`RERANK_MODE=${kn.hybrid.rerankMode} needs RERANK_URL (the cross-encoder endpoint)`);
  const channels = new RecallChannels(
    { ...kn.hybrid, embedding: kn.embedding, rerank: kb.rerank },
    recallMetrics(metrics),
  );
  return new EmbeddedKnowledgeNetwork(kn, pool, channels);
}

@Global()
@Module({
  providers: [
    {
      provide: KnowledgeNetworkPort,
      useFactory: createKnowledgeNetwork,
      inject: [configToken('kn'), configToken('upstream'), MetricsService, WorkerPool, configToken('kb')],
    },
    KnowledgeNetworkHealth,
  ],
  exports: [KnowledgeNetworkPort],
})
export class KnowledgeNetworkModule {}
