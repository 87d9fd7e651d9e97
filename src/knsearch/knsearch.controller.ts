import { Body, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { KnId } from '../common/http/kn-id';
import { ApiController } from '../common/http/route-prefixes';
import { KnSummary } from '../knowledge-network/knowledge-network.types';
import { KnSearchDto } from './dto/kn-search.dto';
import { LogicPropertyResolverDto } from './dto/logic-property-resolver.dto';
import { QueryInstanceSubgraphDto } from './dto/query-instance-subgraph.dto';
import { QueryObjectInstanceDto } from './dto/query-object-instance.dto';
import { FindSkillsDto } from './dto/find-skills.dto';
import { SearchSchemaDto } from './dto/search-schema.dto';
import { SemanticSearchDto } from './dto/semantic-search.dto';
import {
  KnSearchResponse,
  QueryInstanceSubgraphResponse,
  QueryObjectInstanceResponse,
  ResolveLogicPropertiesResponse,
  SchemaSearchResponse,
  SemanticSearchResponse,
} from './knsearch.types';
import { KnSearchService } from './knsearch.service';
import { SkillsService } from './skills.service';
import { FindSkillsResponse } from './skills.types';

const blank = (value: unknown): boolean => typeof value !== 'string' || value.trim() === '';

/** The knowledge-network routes (SPEC §3); each is one call into KnSearchService. */
@ApiTags('knowledge network')
@ApiController('kn')
export class KnSearchController {
  constructor(
    private readonly service: KnSearchService,
    private readonly skills: SkillsService,
  ) {}

  @Get('networks')
  async networks(): Promise<{ networks: KnSummary[] }> {
    return { networks: await this.service.listNetworks() };
  }

  @Post('search_schema')
  @HttpCode(200)
  searchSchema(@Body() body: SearchSchemaDto, @KnId() knId: string): Promise<SchemaSearchResponse> {
    return this.service.searchSchema({ ...body, kn_id: knId });
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
    @Query('include_logic_params') logicParams?: string,
  ): Promise<QueryObjectInstanceResponse> {
    const ot = blank(body.ot_id) ? otId : body.ot_id;
    const include_logic_params = body.include_logic_params ?? logicParams === 'true';
    return this.service.queryObjectInstance({ ...body, ot_id: ot ?? '', kn_id: knId, include_logic_params });
  }

  @Post('query_instance_subgraph')
  @HttpCode(200)
  queryInstanceSubgraph(
    @Body() body: QueryInstanceSubgraphDto,
    @KnId() knId: string,
    @Query('include_logic_params') logicParams?: string,
  ): Promise<QueryInstanceSubgraphResponse> {
    const include_logic_params = body.include_logic_params ?? logicParams === 'true';
    return this.service.queryInstanceSubgraph({ ...body, kn_id: knId, include_logic_params });
  }

  @Post('logic-property-resolver')
  @HttpCode(200)
  resolveLogicProperties(
    @Body() body: LogicPropertyResolverDto,
    @KnId() knId: string,
  ): Promise<ResolveLogicPropertiesResponse> {
    return this.service.resolveLogicProperties({ ...body, kn_id: knId });
  }

  @Post('find_skills')
  @HttpCode(200)
  findSkills(@Body() body: FindSkillsDto, @KnId() knId: string): Promise<FindSkillsResponse> {
    return this.skills.findSkills({ ...body, kn_id: knId });
  }
}
