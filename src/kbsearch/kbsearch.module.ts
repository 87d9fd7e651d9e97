import { Module } from '@nestjs/common';
import { withPrivateTwins } from '../common/http/route-prefixes';
import { McpToolingModule } from '../common/mcp/mcp-tooling.module';
import { WorkerPool } from '../common/workers/worker-pool';
import { configToken, KbConfig, KnConfig } from '../config';
import { MetricsService } from '../metrics/metrics.service';
import { upstreamMetrics } from '../metrics/upstream-metrics';
import { EmbeddedKnowledgeBase } from './embedded/embedded-knowledge-base';
import { KnowledgeBasePort } from './kb.types';
import { KbSearchController } from './kbsearch.controller';
import { KbSearchService } from './kbsearch.service';
import { WeKnoraListKnowledgeBasesTool } from './tools/weknora-list-knowledge-bases.tool';
import { WeKnoraSearchTool } from './tools/weknora-search.tool';
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

/** Knowledge-base search (SPEC §9, seed 003): REST twins and two MCP tools over one service. */
@Module({
  imports: [McpToolingModule],
  controllers: [...withPrivateTwins(KbSearchController), WeKnoraSearchTool, WeKnoraListKnowledgeBasesTool],
  providers: [
    {
      provide: KnowledgeBasePort,
      useFactory: createKnowledgeBase,
      inject: [configToken('kb'), configToken('kn'), MetricsService, WorkerPool],
    },
    KbSearchService,
  ],
  exports: [KbSearchService],
})
export class KbSearchModule {}
