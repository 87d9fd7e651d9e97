import {
  IsArray,
  IsBoolean,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
} from 'class-validator';
import { KnCondition } from '../../knowledge-network/knowledge-network.types';

/** POST /kn/query_object_instance; kn_id and ot_id may also come from the query string. The condition tree is validated by the adapter. */
export class QueryObjectInstanceDto {
  @IsOptional() @IsString() kn_id?: string;
  @IsOptional() @IsString() ot_id?: string;
  @IsOptional() @IsObject() condition?: KnCondition;
  @IsOptional() @IsInt() @Min(1) @Max(10000) limit?: number;
  @IsOptional() @IsArray() @IsString({ each: true }) properties?: string[];
  @IsOptional() @IsBoolean() include_logic_params?: boolean;
}
