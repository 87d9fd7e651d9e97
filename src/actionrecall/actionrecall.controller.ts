import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { KnId } from '../common/http/kn-id';
import { ApiController } from '../common/http/route-prefixes';
import { GetActionInfoResponse } from './actionrecall.types';
import { ActionRecallService } from './actionrecall.service';
import { GetActionInfoDto } from './dto/get-action-info.dto';

@ApiTags('action recall')
@ApiController('kn')
export class ActionRecallController {
  constructor(private readonly actions: ActionRecallService) {}

  @Post('get_action_info')
  @HttpCode(200)
  @ApiOperation({ summary: 'Recall an action type as an OpenAI function-call definition plus how to call it' })
  getActionInfo(@Body() body: GetActionInfoDto, @KnId() knId: string): Promise<GetActionInfoResponse> {
    return this.actions.getActionInfo({ ...body, kn_id: knId });
  }
}
