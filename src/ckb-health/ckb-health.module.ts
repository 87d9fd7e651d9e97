import { Module } from '@nestjs/common';
import { CkbConfig, configToken } from '../config';
import { McpToolingModule } from '../mcpserver/mcp-tooling.module';
import { CkbCircuit } from './ckb-circuit';
import { CkbCodeGraph } from './ckb-code-graph';
import { CkbHealthIndicator } from './ckb-health.indicator';
import { CkbMetadataInterceptor } from './ckb-metadata.interceptor';
import { CkbMetrics } from './ckb.metrics';
import { CkbPort } from './ckb.port';
import { CkbProbeScheduler } from './ckb-probe.scheduler';
import { CodeCallChainService } from './code-call-chain.service';
import { CodeGraphRagService } from './code-graph-rag.service';
import { CodeIndexPort } from './code-index/code-index.port';
import { createCkbPort, createCodeIndex } from './code-tools.factory';
import { CodeController } from './code.controller';
import { createCkbStateStore } from './state/ckb-state.factory';
import { CiCallChainTool } from './tools/ci-call-chain.tool';
import { CiGraphRagTool } from './tools/ci-graph-rag.tool';
import { CkbStateStore } from './state/ckb-state.store';

/** CKB health and cooldown, the code index and the code graph-RAG tools (SPEC §8, seed 001). */
@Module({
  imports: [McpToolingModule],
  controllers: [CodeController, CiGraphRagTool, CiCallChainTool],
  providers: [
    { provide: CkbPort, useFactory: createCkbPort, inject: [configToken('ckb')] },
    { provide: CkbStateStore, useFactory: createCkbStateStore, inject: [configToken('ckb')] },
    { provide: CodeIndexPort, useFactory: (config: CkbConfig) => createCodeIndex(config), inject: [configToken('ckb')] },
    CkbMetrics,
    CkbCircuit,
    CkbCodeGraph,
    CodeGraphRagService,
    CodeCallChainService,
    CkbMetadataInterceptor,
    CkbHealthIndicator,
    CkbProbeScheduler,
  ],
  exports: [CodeGraphRagService, CodeCallChainService],
})
export class CkbHealthModule {}
