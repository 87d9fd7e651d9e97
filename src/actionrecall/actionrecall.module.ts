import { Module } from '@nestjs/common';
import { capabilityBundle } from '../capabilities/capability-catalog';
import { capabilityControllers } from '../capabilities/capability-rest';
import { McpProxyModule } from '../mcpproxy/mcpproxy.module';
import { ActionAudit } from './action-audit';
import { ActionBoundTools } from './action-bound-tools';
import { ActionConditionChecker } from './action-condition-checker';
import { ActionExecutionService } from './action-execution.service';
import { ActionRecallService } from './actionrecall.service';
import { ACTION_CAPABILITIES } from './capabilities';

/** Action recall (SPEC §6, seed 000) and execution: `get_action_info` and `execute_action` at every door. */
@Module({
  imports: [McpProxyModule],
  controllers: capabilityControllers('action recall', ACTION_CAPABILITIES),
  providers: [
    ActionRecallService,
    ActionExecutionService,
    ActionConditionChecker,
    ActionAudit,
    ActionBoundTools,
    capabilityBundle('actions', ACTION_CAPABILITIES),
  ],
  exports: [ActionRecallService, ActionBoundTools],
})
export class ActionRecallModule {}
