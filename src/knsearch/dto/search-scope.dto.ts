import { IsArray, IsBoolean, IsOptional, IsString } from 'class-validator';

export class SearchScopeDto {
  @IsOptional() @IsArray() @IsString({ each: true }) concept_groups?: string[];
  @IsOptional() @IsBoolean() include_object_types?: boolean;
  @IsOptional() @IsBoolean() include_relation_types?: boolean;
  @IsOptional() @IsBoolean() include_action_types?: boolean;
}
