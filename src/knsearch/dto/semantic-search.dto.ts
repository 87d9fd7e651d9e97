import { KnScopedDto } from '../../common/http/kn-scoped.dto';
import { IsRequiredText } from '../../common/http/required-text';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { MAX_CONCEPTS } from '../knsearch.limits';
import { SearchScopeDto } from './search-scope.dto';

/** POST /kn/semantic-search (tool kn_schema_search). */
export class SemanticSearchDto extends KnScopedDto {
  @ApiProperty({ description: 'The question or keywords' })
  @IsRequiredText()
  @IsString()
  query!: string;
  @ApiPropertyOptional({ description: 'Which concept types (and concept groups) to search' })
  @IsOptional()
  @ValidateNested()
  @Type(() => SearchScopeDto)
  search_scope?: SearchScopeDto;
  @ApiPropertyOptional({
    description: 'Concepts to return',
    minimum: MAX_CONCEPTS.min,
    maximum: MAX_CONCEPTS.max,
    default: MAX_CONCEPTS.default,
  })
  @IsOptional()
  @IsInt()
  @Min(MAX_CONCEPTS.min)
  @Max(MAX_CONCEPTS.max)
  max_concepts?: number;
}
