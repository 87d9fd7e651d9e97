import { Module } from '@nestjs/common';
import { CkbHealthModule } from '../ckb-health/ckb-health.module';
import { capabilityBundle } from '../capabilities/capability-catalog';
import { capabilityControllers } from '../capabilities/capability-rest';
import { CkbConfig, configToken } from '../config';
import { CkbCodeGraph } from './ckb-code-graph';
import { CodeCallChainService } from './code-call-chain.service';
import { CodeGraphRagService } from './code-graph-rag.service';
import { CodeIndexHealthIndicator } from './code-index.health';
import { CodeIndexPort } from './code-index/code-index.port';
import { createCodeIndex } from './code-tools.factory';
import { CODE_CAPABILITIES } from './capabilities';

/**
 * Code graph-RAG (SPEC §8, seed 001): the code index, graph expansion through CKB (via the CKB health
 * module's circuit) or the local import graph, and its three doors — REST, the `ci_*` MCP tools and the
 * `graph-rag` CLI.
 */
@Module({
  imports: [CkbHealthModule],
  controllers: capabilityControllers('code', CODE_CAPABILITIES),
  providers: [
    {
      provide: CodeIndexPort,
      useFactory: (config: CkbConfig) => createCodeIndex(config),
      inject: [configToken('ckb')],
    },
    CkbCodeGraph,
    CodeGraphRagService,
    CodeCallChainService,
    CodeIndexHealthIndicator,
    capabilityBundle('code', CODE_CAPABILITIES),
  ],
  exports: [CodeGraphRagService, CodeCallChainService],
})
export class CodeIntelligenceModule {}
