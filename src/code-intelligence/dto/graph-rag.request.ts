import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class GraphRagRequestDto {
  @ApiProperty({ description: 'What to look for in the code, in words or identifiers', example: 'apply discounts' })
  // class-validator reports the innermost decorator first: the type check goes last so it wins.
  @IsNotEmpty()
  @MaxLength(1000)
  @IsString()
  query!: string;

  @ApiPropertyOptional({ description: 'Graph expansion hops (0 = keyword search only)', minimum: 0, maximum: 5, default: 1 })
  @IsOptional()
  @Min(0)
  @Max(5)
  @IsInt()
  fusion_depth?: number;

  @ApiPropertyOptional({ description: 'Token budget for candidate content (~4 characters per token)', minimum: 100, maximum: 100000, default: 8000 })
  @IsOptional()
  @Min(100)
  @Max(100000)
  @IsInt()
  budget?: number;
}
