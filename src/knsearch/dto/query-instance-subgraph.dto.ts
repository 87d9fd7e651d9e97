import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsObject,
  IsOptional,
  IsString,
} from 'class-validator';
import { RelationTypePath } from '../../knowledge-network/knowledge-network.types';

/** POST /kn/query_instance_subgraph; each path's shape is checked by the adapter (n hops = n+1 object types). */
export class QueryInstanceSubgraphDto {
  @IsOptional() @IsString() kn_id?: string;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsObject({ each: true })
  relation_type_paths: RelationTypePath[];
  @IsOptional() @IsBoolean() include_logic_params?: boolean;
}
