import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import type { CallDirection } from '../code-tools.types';

export const CALL_DIRECTIONS: readonly CallDirection[] = ['callers', 'callees', 'both'];

export class CallChainRequestDto {
  @ApiProperty({ description: 'Function, method or class name', example: 'calculateTotal' })
  @IsNotEmpty()
  @Matches(/^[A-Za-z_$][\w$.]*$/, { message: 'symbol must be an identifier' })
  @MaxLength(200)
  @IsString()
  symbol!: string;

  @ApiPropertyOptional({ enum: CALL_DIRECTIONS, default: 'both' })
  @IsOptional()
  @IsIn(CALL_DIRECTIONS)
  direction?: CallDirection;

  @ApiPropertyOptional({ minimum: 1, maximum: 5, default: 2 })
  @IsOptional()
  @Min(1)
  @Max(5)
  @IsInt()
  depth?: number;
}
