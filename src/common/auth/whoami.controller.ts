import { Get, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiController } from '../http/route-prefixes';
import { ApiErrorResponses } from '../errors/error-body.dto';
import { ANONYMOUS } from './account';
import type { AuthenticatedRequest } from './auth.guard';

/** Lets a caller check which account its token (or its x-account-* headers) resolves to. */
@ApiTags('auth')
@ApiBearerAuth()
@ApiErrorResponses(401, 503)
@ApiController('auth')
export class WhoamiController {
  @Get('whoami')
  @ApiOperation({ summary: 'The account this request is attributed to' })
  @ApiOkResponse({ schema: { example: { account_id: 'u-42', account_type: 'user' } } })
  whoami(@Req() request: AuthenticatedRequest): { account_id: string; account_type: string } {
    const account = request.account ?? ANONYMOUS;
    return { account_id: account.id, account_type: account.type };
  }
}
