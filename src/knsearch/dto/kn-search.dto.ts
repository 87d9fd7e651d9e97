import { Type } from 'class-transformer';
import { IsBoolean, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { SearchScopeDto } from './search-scope.dto';

/** POST /kn/kn_search. query and kn_id are checked by the service so REST and MCP say the same thing. */
export class KnSearchDto {
  @IsOptional() @IsString() query?: string;
  @IsOptional() @IsString() kn_id?: string;
  @IsOptional() @IsBoolean() only_schema?: boolean;
  @IsOptional() @IsBoolean() enable_rerank?: boolean;
  @IsOptional() @ValidateNested() @Type(() => SearchScopeDto) search_scope?: SearchScopeDto;
  @IsOptional() @IsObject() retrieval_config?: Record<string, unknown>;
}
