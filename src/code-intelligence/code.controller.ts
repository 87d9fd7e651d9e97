import { Body, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PublicController } from '../common/http/route-prefixes';
import { CkbMetadataInterceptor } from '../ckb-health/ckb-metadata.interceptor';
import { CodeCallChainService } from './code-call-chain.service';
import { CodeGraphRagService } from './code-graph-rag.service';
import { ToolOutcome } from '../ckb-health/ckb-metadata';
import { CallChainResult, GraphRagResult } from './code-tools.types';
import { CallChainRequestDto } from './dto/call-chain.request';
import { GraphRagRequestDto } from './dto/graph-rag.request';

/** REST doors of the code tools (SPEC §8); the interceptor adds seed 001's `metadata`. */
@ApiTags('code')
@PublicController('code')
@UseInterceptors(CkbMetadataInterceptor)
export class CodeController {
  constructor(
    private readonly graphRagService: CodeGraphRagService,
    private readonly callChainService: CodeCallChainService,
  ) {}

  @Post('graph_rag')
  @HttpCode(200)
  @ApiOperation({ summary: 'Code graph-RAG: keyword hits expanded through CKB or the local import graph' })
  graphRag(@Body() body: GraphRagRequestDto): Promise<ToolOutcome<GraphRagResult>> {
    return this.graphRagService.graphRag(body);
  }

  @Post('call_chain')
  @HttpCode(200)
  @ApiOperation({ summary: 'Callers and callees of a symbol, through CKB or a local reference search' })
  callChain(@Body() body: CallChainRequestDto): Promise<ToolOutcome<CallChainResult>> {
    return this.callChainService.callChain(body);
  }
}
