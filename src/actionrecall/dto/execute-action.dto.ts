import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsNotEmpty, IsObject, IsOptional, IsString } from 'class-validator';
import { KnScopedDto } from '../../common/http/kn-scoped.dto';
import { InstanceIdentity } from '../../knowledge-network/knowledge-network.types';

/** Body of POST /kn/execute_action (issue 15: the action an MCP client found, run for one instance). */
export class ExecuteActionDto extends KnScopedDto {
  @ApiProperty({ description: 'Action type id (from kn_search / get_action_info)' })
  @IsString()
  @IsNotEmpty()
  at_id: string;

  @ApiProperty({
    description: 'The instance the action runs for: primary-key property → value',
    type: 'object',
    additionalProperties: true,
  })
  @IsDefined()
  @IsObject()
  _instance_identity: InstanceIdentity;

  @ApiPropertyOptional({
    description:
      "The caller's input arguments (flat, or {header, path, query, body} for a toolbox tool); the action's fixed values override them",
    type: 'object',
    additionalProperties: true,
  })
  @IsOptional()
  @IsObject()
  arguments?: Record<string, unknown>;

  @ApiPropertyOptional({
    description: 'The user approved this execution; required when the action requires approval or is high risk',
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  confirm?: boolean;
}
