import { Module } from '@nestjs/common';
import { withPrivateTwins } from '../common/http/route-prefixes';
import { McpToolingModule } from '../common/mcp/mcp-tooling.module';
import { ActionRecallController } from './actionrecall.controller';
import { ActionRecallService } from './actionrecall.service';
import { GetActionInfoTool } from './tools/get-action-info.tool';

/** Action recall (SPEC §4, seed 002): `get_action_info` over REST and MCP. */
@Module({
  imports: [McpToolingModule],
  controllers: [...withPrivateTwins(ActionRecallController), GetActionInfoTool],
  providers: [ActionRecallService],
  exports: [ActionRecallService],
})
export class ActionRecallModule {}
