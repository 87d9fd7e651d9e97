import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { CALL_CHAIN_DEPTH, CALL_DIRECTIONS, SYMBOL_MAX_LENGTH, SYMBOL_PATTERN } from '../code-tools.limits';
import type { CallDirection } from '../code-tools.types';

export class CallChainRequestDto {
  @ApiProperty({ description: 'Function, method or class name', example: 'calculateTotal' })
  @IsNotEmpty()
  @Matches(SYMBOL_PATTERN, { message: 'symbol must be an identifier' })
  @MaxLength(SYMBOL_MAX_LENGTH)
  @IsString()
  symbol!: string;

  @ApiPropertyOptional({ enum: CALL_DIRECTIONS, default: 'both' })
  @IsOptional()
  @IsIn(CALL_DIRECTIONS)
  direction?: CallDirection;

  @ApiPropertyOptional({
    minimum: CALL_CHAIN_DEPTH.min,
    maximum: CALL_CHAIN_DEPTH.max,
    default: CALL_CHAIN_DEPTH.default,
  })
  @IsOptional()
  @Min(CALL_CHAIN_DEPTH.min)
  @Max(CALL_CHAIN_DEPTH.max)
  @IsInt()
  depth?: number;
}
