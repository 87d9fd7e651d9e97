import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
} from 'class-validator';
import { InstanceIdentity } from '../../knowledge-network/knowledge-network.types';

/** POST /kn/logic-property-resolver (tool resolve_logic_properties). */
export class LogicPropertyResolverDto {
  @IsOptional() @IsString() kn_id?: string;
  @IsString() @IsNotEmpty() ot_id: string;
  @IsOptional() @IsString() query?: string;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsObject({ each: true })
  _instance_identities: InstanceIdentity[];
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(100) @IsString({ each: true }) properties: string[];
  @IsOptional() @IsString() additional_context?: string;
  @IsOptional() @IsObject() options?: Record<string, unknown>;
}
