import { KnScopedDto } from '../../common/http/kn-scoped.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsNotEmpty, IsObject, IsOptional, IsString } from 'class-validator';
import { InstanceIdentity } from '../../knowledge-network/knowledge-network.types';

/** Body of POST /kn/get_action_info (SPEC §6). */
export class GetActionInfoDto extends KnScopedDto {
  @ApiProperty({ description: 'Action type id' })
  @IsString()
  @IsNotEmpty()
  at_id: string;

  @ApiPropertyOptional({
    description: 'One target instance (primary-key map)',
    type: 'object',
    additionalProperties: true,
  })
  @IsOptional()
  @IsObject()
  _instance_identity?: InstanceIdentity;

  @ApiPropertyOptional({
    description: 'Target instances; wins over _instance_identity when non-empty',
    type: 'array',
    items: { type: 'object', additionalProperties: true },
  })
  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  _instance_identities?: InstanceIdentity[];
}
