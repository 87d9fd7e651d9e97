import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { CODE_QUERY_MAX_LENGTH, FUSION_DEPTH, TOKEN_BUDGET } from '../code-tools.limits';

export class GraphRagRequestDto {
  @ApiProperty({ description: 'What to look for in the code, in words or identifiers', example: 'apply discounts' })
  // class-validator reports the innermost decorator first: the type check goes last so it wins.
  @IsNotEmpty()
  @MaxLength(CODE_QUERY_MAX_LENGTH)
  @IsString()
  query!: string;

  @ApiPropertyOptional({
    description: 'Graph expansion hops (0 = keyword search only)',
    minimum: FUSION_DEPTH.min,
    maximum: FUSION_DEPTH.max,
    default: FUSION_DEPTH.default,
  })
  @IsOptional()
  @Min(FUSION_DEPTH.min)
  @Max(FUSION_DEPTH.max)
  @IsInt()
  fusion_depth?: number;

  @ApiPropertyOptional({
    description: 'Token budget for candidate content (~4 characters per token)',
    minimum: TOKEN_BUDGET.min,
    maximum: TOKEN_BUDGET.max,
    default: TOKEN_BUDGET.default,
  })
  @IsOptional()
  @Min(TOKEN_BUDGET.min)
  @Max(TOKEN_BUDGET.max)
  @IsInt()
  budget?: number;
}
