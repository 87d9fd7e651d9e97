import { KnScopedDto } from '../../common/http/kn-scoped.dto';
import { IsRequiredText } from '../../common/http/required-text';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsObject, IsOptional, IsString } from 'class-validator';
import { InstanceIdentity } from '../../knowledge-network/knowledge-network.types';
import { MAX_LOGIC_PROPERTIES } from '../knsearch.limits';

/** POST /kn/logic-property-resolver (tool resolve_logic_properties). */
export class LogicPropertyResolverDto extends KnScopedDto {
  @ApiProperty({ description: 'Object type id; may also come from the ot_id query parameter' })
  @IsString()
  @IsNotEmpty()
  ot_id: string;
  @ApiProperty({ description: 'The question or keywords' })
  @IsRequiredText()
  @IsString()
  query!: string;
  @ApiProperty({
    description: 'Primary-key maps of the instances (from _instance_identity)',
    type: 'array',
    items: { type: 'object' },
  })
  @IsArray()
  @ArrayMinSize(1)
  @IsObject({ each: true })
  _instance_identities: InstanceIdentity[];
  @ApiProperty({ description: 'Logic properties to resolve', type: [String] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_LOGIC_PROPERTIES)
  @IsString({ each: true })
  properties: string[];
  @ApiPropertyOptional({
    description: 'Free text, or a JSON object whose keys supply input parameters',
  })
  @IsOptional()
  @IsString()
  additional_context?: string;
  @ApiPropertyOptional({ description: 'Accepted for compatibility' })
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;
}
