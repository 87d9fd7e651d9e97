import { Module } from '@nestjs/common';
import { withPrivateTwins } from '../common/http/route-prefixes';
import { McpToolingModule } from '../common/mcp/mcp-tooling.module';
import { McpProxyModule } from '../mcpproxy/mcpproxy.module';
import { ActionAudit } from './action-audit';
import { ActionConditionChecker } from './action-condition-checker';
import { ActionExecutionService } from './action-execution.service';
import { ActionRecallController } from './actionrecall.controller';
import { ActionRecallService } from './actionrecall.service';
import { ExecuteActionTool } from './tools/execute-action.tool';
import { GetActionInfoTool } from './tools/get-action-info.tool';

/**
 * Action recall (SPEC §4, seed 002) and execution (issue 15): `get_action_info` and `execute_action` over
 * REST and MCP. The MCP tool order is fixed: execute_action comes right after get_action_info.
 */
@Module({
  imports: [McpToolingModule, McpProxyModule],
  controllers: [...withPrivateTwins(ActionRecallController), GetActionInfoTool, ExecuteActionTool],
  providers: [ActionRecallService, ActionExecutionService, ActionConditionChecker, ActionAudit],
  exports: [ActionRecallService],
})
export class ActionRecallModule {}
