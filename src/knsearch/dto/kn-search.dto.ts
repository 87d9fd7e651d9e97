import { KnScopedDto } from '../../common/http/kn-scoped.dto';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { SearchScopeDto } from './search-scope.dto';

/** POST /kn/kn_search. query and kn_id are checked by the service so REST and MCP say the same thing. */
export class KnSearchDto extends KnScopedDto {
  @ApiPropertyOptional({ description: 'The question or keywords (required)' })
  @IsOptional()
  @IsString()
  query?: string;
  @ApiPropertyOptional({ description: 'Return only concepts, no instance nodes (default false)' })
  @IsOptional()
  @IsBoolean()
  only_schema?: boolean;
  @ApiPropertyOptional({
    description: 'Rank relation types by relevance before cutting to top_k (default true)',
  })
  @IsOptional()
  @IsBoolean()
  enable_rerank?: boolean;
  @ApiPropertyOptional({ description: 'Which concept types (and concept groups) to search' })
  @IsOptional()
  @ValidateNested()
  @Type(() => SearchScopeDto)
  search_scope?: SearchScopeDto;
  @ApiPropertyOptional({
    description:
      'Tuning: concept_retrieval.top_k, semantic_instance_retrieval.*, property_filter.*',
  })
  @IsOptional()
  @IsObject()
  retrieval_config?: Record<string, unknown>;
}
