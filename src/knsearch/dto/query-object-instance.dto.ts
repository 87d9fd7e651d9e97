import { KnScopedDto } from '../../common/http/kn-scoped.dto';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsInt, IsObject, IsOptional, IsString, Max, Min } from 'class-validator';
import { KnCondition } from '../../knowledge-network/knowledge-network.types';
import { INSTANCE_LIMIT } from '../knsearch.limits';

/** POST /kn/query_object_instance; kn_id and ot_id may also come from the query string. The condition tree is validated by the adapter. */
export class QueryObjectInstanceDto extends KnScopedDto {
  @ApiPropertyOptional({
    description: 'Object type id; may also come from the ot_id query parameter',
  })
  @IsOptional()
  @IsString()
  ot_id?: string;
  @ApiPropertyOptional({ description: 'Condition tree {operation, field, value, sub_conditions}' })
  @IsOptional()
  @IsObject()
  condition?: KnCondition;
  @ApiPropertyOptional({
    description: 'Rows to return',
    minimum: INSTANCE_LIMIT.min,
    maximum: INSTANCE_LIMIT.max,
    default: INSTANCE_LIMIT.default,
  })
  @IsOptional()
  @IsInt()
  @Min(INSTANCE_LIMIT.min)
  @Max(INSTANCE_LIMIT.max)
  limit?: number;
  @ApiPropertyOptional({ description: 'Properties to return (default: all)', type: [String] })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  properties?: string[];
  @ApiPropertyOptional({
    description:
      'Add each logic property with its parameter definitions to every instance (also ?include_logic_params=true)',
  })
  @IsOptional()
  @IsBoolean()
  include_logic_params?: boolean;
}
