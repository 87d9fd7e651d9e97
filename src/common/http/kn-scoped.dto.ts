import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/**
 * Base of every request body aimed at one knowledge network. kn_id is optional here because it may
 * also come from the query string or X-Kn-ID; `resolveKnId` enforces it with the documented message.
 */
export class KnScopedDto {
  @ApiPropertyOptional({
    description: 'Knowledge network id; falls back to the kn_id query parameter, then the X-Kn-ID header',
  })
  @IsOptional()
  @IsString()
  kn_id?: string;
}
