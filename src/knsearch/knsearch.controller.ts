import { Body, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { KnId } from '../common/http/kn-id';
import { ApiController } from '../common/http/route-prefixes';
import { KnSummary } from '../knowledge-network/knowledge-network.types';
import { KnSearchDto } from './dto/kn-search.dto';
import { LogicPropertyResolverDto } from './dto/logic-property-resolver.dto';
import { QueryInstanceSubgraphDto } from './dto/query-instance-subgraph.dto';
import { QueryObjectInstanceDto } from './dto/query-object-instance.dto';
import { SemanticSearchDto } from './dto/semantic-search.dto';
import {
  KnSearchResponse,
  QueryInstanceSubgraphResponse,
  QueryObjectInstanceResponse,
  ResolveLogicPropertiesResponse,
  SemanticSearchResponse,
} from './knsearch.types';
import { KnSearchService } from './knsearch.service';

const blank = (value: unknown): boolean => typeof value !== 'string' || value.trim() === '';

/** The knowledge-network routes (SPEC §3); each is one call into KnSearchService. */
@ApiTags('knowledge network')
@ApiController('kn')
export class KnSearchController {
  constructor(private readonly service: KnSearchService) {}

  @Get('networks')
  async networks(): Promise<{ networks: KnSummary[] }> {
    return { networks: await this.service.listNetworks() };
  }

  @Post('kn_search')
  @HttpCode(200)
  knSearch(@Body() body: KnSearchDto, @KnId() knId: string): Promise<KnSearchResponse> {
    return this.service.knSearch({ ...body, kn_id: knId });
  }

  @Post('semantic-search')
  @HttpCode(200)
  semanticSearch(@Body() body: SemanticSearchDto, @KnId() knId: string): Promise<SemanticSearchResponse> {
    return this.service.semanticSearch({ ...body, kn_id: knId });
  }

  @Post('query_object_instance')
  @HttpCode(200)
  queryObjectInstance(
    @Body() body: QueryObjectInstanceDto,
    @KnId() knId: string,
    @Query('ot_id') otId?: string,
  ): Promise<QueryObjectInstanceResponse> {
    const ot = blank(body.ot_id) ? otId : body.ot_id;
    return this.service.queryObjectInstance({ ...body, ot_id: ot ?? '', kn_id: knId });
  }

  @Post('query_instance_subgraph')
  @HttpCode(200)
  queryInstanceSubgraph(
    @Body() body: QueryInstanceSubgraphDto,
    @KnId() knId: string,
  ): Promise<QueryInstanceSubgraphResponse> {
    return this.service.queryInstanceSubgraph({ ...body, kn_id: knId });
  }

  @Post('logic-property-resolver')
  @HttpCode(200)
  resolveLogicProperties(
    @Body() body: LogicPropertyResolverDto,
    @KnId() knId: string,
  ): Promise<ResolveLogicPropertiesResponse> {
    return this.service.resolveLogicProperties({ ...body, kn_id: knId });
  }
}
