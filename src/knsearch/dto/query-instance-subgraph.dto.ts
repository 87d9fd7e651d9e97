import { KnScopedDto } from '../../common/http/kn-scoped.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsBoolean, IsObject, IsOptional } from 'class-validator';
import { RelationTypePath } from '../../knowledge-network/knowledge-network.types';

/** POST /kn/query_instance_subgraph; each path's shape is checked by the adapter (n hops = n+1 object types). */
export class QueryInstanceSubgraphDto extends KnScopedDto {
  @ApiProperty({
    description: 'Paths of n hops: n+1 object types (each with condition and limit) and n relation types',
    type: 'array',
    items: { type: 'object' },
  })
  @IsArray()
  @ArrayMinSize(1)
  @IsObject({ each: true })
  relation_type_paths: RelationTypePath[];
  @ApiPropertyOptional({
    description:
      'Add each logic property with its parameter definitions to every object (also ?include_logic_params=true)',
  })
  @IsOptional()
  @IsBoolean()
  include_logic_params?: boolean;
}
