import { Body, Headers, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { resolveKnId } from '../common/http/kn-id';
import { ApiController } from '../common/http/route-prefixes';
import { GetActionInfoResponse } from './actionrecall.types';
import { ActionRecallService } from './actionrecall.service';
import { GetActionInfoDto } from './dto/get-action-info.dto';

const nonBlank = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

@ApiTags('action recall')
@ApiController('kn')
export class ActionRecallController {
  constructor(private readonly actions: ActionRecallService) {}

  @Post('get_action_info')
  @HttpCode(200)
  @ApiOperation({ summary: 'Recall an action type as an OpenAI function-call definition plus how to call it' })
  getActionInfo(
    @Body() body: GetActionInfoDto,
    @Query('kn_id') queryKnId?: string,
    @Headers('x-kn-id') headerKnId?: string,
  ): Promise<GetActionInfoResponse> {
    const knId = resolveKnId(nonBlank(body.kn_id) ?? queryKnId, headerKnId);
    return this.actions.getActionInfo({ ...body, kn_id: knId });
  }
}
