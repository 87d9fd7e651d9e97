import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { SearchScopeDto } from './search-scope.dto';

/** POST /kn/semantic-search (tool kn_schema_search). */
export class SemanticSearchDto {
  @IsOptional() @IsString() query?: string;
  @IsOptional() @IsString() kn_id?: string;
  @IsOptional() @ValidateNested() @Type(() => SearchScopeDto) search_scope?: SearchScopeDto;
  @IsOptional() @IsInt() @Min(1) @Max(1000) max_concepts?: number;
}
