import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { KnId } from '../common/http/kn-id';
import { ApiController } from '../common/http/route-prefixes';
import { ActionExecutionService } from './action-execution.service';
import { ExecuteActionResponse, GetActionInfoResponse } from './actionrecall.types';
import { ActionRecallService } from './actionrecall.service';
import { ExecuteActionDto } from './dto/execute-action.dto';
import { GetActionInfoDto } from './dto/get-action-info.dto';

@ApiTags('action recall')
@ApiController('kn')
export class ActionRecallController {
  constructor(
    private readonly actions: ActionRecallService,
    private readonly executions: ActionExecutionService,
  ) {}

  @Post('get_action_info')
  @HttpCode(200)
  @ApiOperation({ summary: 'Recall an action type as an OpenAI function-call definition plus how to call it' })
  getActionInfo(@Body() body: GetActionInfoDto, @KnId() knId: string): Promise<GetActionInfoResponse> {
    return this.actions.getActionInfo({ ...body, kn_id: knId });
  }

  @Post('execute_action')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Run a recalled action for one instance: fixed values merged, arguments validated, conditions and approval enforced',
  })
  executeAction(@Body() body: ExecuteActionDto, @KnId() knId: string): Promise<ExecuteActionResponse> {
    return this.executions.execute({ ...body, kn_id: knId });
  }
}
