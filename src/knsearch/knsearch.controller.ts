import { Body, Get, Headers, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { resolveKnId } from '../common/http/kn-id';
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
/** kn_id: body, then query string, then the X-Kn-ID header (SPEC §3). */
const knIdOf = (
  body: string | undefined,
  query: string | undefined,
  header: string | undefined,
): string => resolveKnId(blank(body) ? query : body, header);

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
  knSearch(
    @Body() body: KnSearchDto,
    @Query('kn_id') knId?: string,
    @Headers('x-kn-id') header?: string,
  ): Promise<KnSearchResponse> {
    return this.service.knSearch({
      ...body,
      query: body.query ?? '',
      kn_id: knIdOf(body.kn_id, knId, header),
    });
  }

  @Post('semantic-search')
  @HttpCode(200)
  semanticSearch(
    @Body() body: SemanticSearchDto,
    @Query('kn_id') knId?: string,
    @Headers('x-kn-id') header?: string,
  ): Promise<SemanticSearchResponse> {
    return this.service.semanticSearch({
      ...body,
      query: body.query ?? '',
      kn_id: knIdOf(body.kn_id, knId, header),
    });
  }

  @Post('query_object_instance')
  @HttpCode(200)
  queryObjectInstance(
    @Body() body: QueryObjectInstanceDto,
    @Query('kn_id') knId?: string,
    @Query('ot_id') otId?: string,
    @Headers('x-kn-id') header?: string,
  ): Promise<QueryObjectInstanceResponse> {
    const ot = blank(body.ot_id) ? otId : body.ot_id;
    return this.service.queryObjectInstance({
      ...body,
      ot_id: ot ?? '',
      kn_id: knIdOf(body.kn_id, knId, header),
    });
  }

  @Post('query_instance_subgraph')
  @HttpCode(200)
  queryInstanceSubgraph(
    @Body() body: QueryInstanceSubgraphDto,
    @Query('kn_id') knId?: string,
    @Headers('x-kn-id') header?: string,
  ): Promise<QueryInstanceSubgraphResponse> {
    return this.service.queryInstanceSubgraph({ ...body, kn_id: knIdOf(body.kn_id, knId, header) });
  }

  @Post('logic-property-resolver')
  @HttpCode(200)
  resolveLogicProperties(
    @Body() body: LogicPropertyResolverDto,
    @Query('kn_id') knId?: string,
    @Headers('x-kn-id') header?: string,
  ): Promise<ResolveLogicPropertiesResponse> {
    return this.service.resolveLogicProperties({
      ...body,
      query: body.query ?? '',
      kn_id: knIdOf(body.kn_id, knId, header),
    });
  }
}
