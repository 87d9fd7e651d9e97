import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { SearchScopeDto } from './search-scope.dto';

/** POST /kn/semantic-search (tool kn_schema_search). */
export class SemanticSearchDto {
  @ApiPropertyOptional({ description: 'The question or keywords (required)' })
  @IsOptional()
  @IsString()
  query?: string;
  @ApiPropertyOptional({
    description:
      'Knowledge network id; falls back to the kn_id query parameter, then the X-Kn-ID header',
  })
  @IsOptional()
  @IsString()
  kn_id?: string;
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
