import { KnScopedDto } from '../../common/http/kn-scoped.dto';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { SearchScopeDto } from './search-scope.dto';

/** POST /kn/semantic-search (tool kn_schema_search). */
export class SemanticSearchDto extends KnScopedDto {
  @ApiPropertyOptional({ description: 'The question or keywords (required)' })
  @IsOptional()
  @IsString()
  query?: string;
  @ApiPropertyOptional({ description: 'Which concept types (and concept groups) to search' })
  @IsOptional()
  @ValidateNested()
  @Type(() => SearchScopeDto)
  search_scope?: SearchScopeDto;
  @ApiPropertyOptional({ description: 'Concepts to return (default 10)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  max_concepts?: number;
}
