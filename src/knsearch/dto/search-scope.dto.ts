import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';

export class SearchScopeDto {
  @ApiPropertyOptional({ description: 'Concept group ids that limit the search', type: [String] })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  concept_groups?: string[];
  @ApiPropertyOptional({ description: 'Search object types (default true)' })
  @IsOptional()
  @IsBoolean()
  include_object_types?: boolean;
  @ApiPropertyOptional({ description: 'Search relation types (default true)' })
  @IsOptional()
  @IsBoolean()
  include_relation_types?: boolean;
  @ApiPropertyOptional({ description: 'Search action types (default true)' })
  @IsOptional()
  @IsBoolean()
  include_action_types?: boolean;
}
