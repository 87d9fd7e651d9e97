import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { KnScopedDto } from '../../common/http/kn-scoped.dto';
import { IsRequiredText } from '../../common/http/required-text';
import { MAX_CONCEPTS } from '../knsearch.limits';
import { SearchScopeDto } from './search-scope.dto';

export class SchemaSearchScopeDto extends SearchScopeDto {
  @ApiPropertyOptional({ description: 'Search metric types (default true)' })
  @IsOptional()
  @IsBoolean()
  include_metric_types?: boolean;
}

/** POST /kn/search_schema (upstream HEAD, tool search_schema). */
export class SearchSchemaDto extends KnScopedDto {
  @ApiProperty({ description: 'The question or keywords' })
  @IsRequiredText()
  @IsString()
  query!: string;
  @ApiPropertyOptional({ description: 'Concept groups and which of the four concept types to search' })
  @IsOptional()
  @ValidateNested()
  @Type(() => SchemaSearchScopeDto)
  search_scope?: SchemaSearchScopeDto;
  @ApiPropertyOptional({
    description:
      'Budget: relation types kept, object types beyond those relations’ endpoints, and metric types returned',
    minimum: MAX_CONCEPTS.min,
    maximum: MAX_CONCEPTS.max,
    default: MAX_CONCEPTS.default,
  })
  @IsOptional()
  @IsInt()
  @Min(MAX_CONCEPTS.min)
  @Max(MAX_CONCEPTS.max)
  max_concepts?: number;
  @ApiPropertyOptional({ description: 'Ids, names and property names/types only (default false)' })
  @IsOptional()
  @IsBoolean()
  schema_brief?: boolean;
  @ApiPropertyOptional({ description: 'Rank relation types by relevance before cutting (default true)' })
  @IsOptional()
  @IsBoolean()
  enable_rerank?: boolean;
}
