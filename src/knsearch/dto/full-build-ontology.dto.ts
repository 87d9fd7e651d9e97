import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { KnScopedDto } from '../../common/http/kn-scoped.dto';
import { IsRequiredText } from '../../common/http/required-text';

/** POST /kn/full_build_ontology (private; upstream-contracts §2.11). */
export class FullBuildOntologyDto extends KnScopedDto {
  @ApiProperty({ description: 'Name of the build job' })
  @IsRequiredText()
  @IsString()
  name!: string;
}
