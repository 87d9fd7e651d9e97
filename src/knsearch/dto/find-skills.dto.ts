import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Max, Min } from 'class-validator';
import { KnScopedDto } from '../../common/http/kn-scoped.dto';
import { InstanceIdentity } from '../../knowledge-network/knowledge-network.types';
import { SKILLS_TOP_K } from '../knsearch.limits';

/** POST /kn/find_skills (tool find_skills); `instance_identities` has no leading underscore (upstream §2.10). */
export class FindSkillsDto extends KnScopedDto {
  @ApiProperty({ description: 'Object type the skills are for (e.g. patient)' })
  @IsString()
  @IsNotEmpty()
  object_type_id: string;
  @ApiPropertyOptional({
    description: 'Primary-key maps of instances of that object type (from _instance_identity)',
    type: 'array',
    items: { type: 'object' },
  })
  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  instance_identities?: InstanceIdentity[];
  @ApiPropertyOptional({ description: 'Keep only skills whose name or description shares words with this text' })
  @IsOptional()
  @IsString()
  skill_query?: string;
  @ApiPropertyOptional({
    description: 'Skills to return',
    minimum: SKILLS_TOP_K.min,
    maximum: SKILLS_TOP_K.max,
    default: SKILLS_TOP_K.default,
  })
  @IsOptional()
  @IsInt()
  @Min(SKILLS_TOP_K.min)
  @Max(SKILLS_TOP_K.max)
  top_k?: number;
}
