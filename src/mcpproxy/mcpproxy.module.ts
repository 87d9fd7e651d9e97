import { Module } from '@nestjs/common';
import { McpProxyController } from './mcp-proxy.controller';
import { OperatorProxyDoor } from './operator-proxy-door';
import { McpProxyService } from './mcp-proxy.service';
import { ToolboxProxyController } from './toolbox-proxy.controller';
import { ToolboxProxyService } from './toolbox-proxy.service';

/**
 * Private routes that run recalled actions: the MCP tool proxy and the toolbox (OpenAPI) proxy. Their
 * services also run execute_action in-process, so every execution path shares one call and its metrics.
 */
@Module({
  controllers: [McpProxyController, ToolboxProxyController],
  providers: [McpProxyService, ToolboxProxyService, OperatorProxyDoor],
  exports: [McpProxyService, ToolboxProxyService],
})
export class McpProxyModule {}
