import { KnScopedDto } from '../../common/http/kn-scoped.dto';
import { IsRequiredText } from '../../common/http/required-text';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { SearchScopeDto } from './search-scope.dto';

/** POST /kn/kn_search; kn_id may also come from the query string or X-Kn-ID (`@KnId()`). */
export class KnSearchDto extends KnScopedDto {
  @ApiProperty({ description: 'The question or keywords' })
  @IsRequiredText()
  @IsString()
  query!: string;
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
    description: 'Tuning: concept_retrieval.top_k, semantic_instance_retrieval.*, property_filter.*',
  })
  @IsOptional()
  @IsObject()
  retrieval_config?: Record<string, unknown>;
}
