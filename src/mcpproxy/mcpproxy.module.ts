import { Module } from '@nestjs/common';
import { McpProxyController } from './mcp-proxy.controller';
import { McpProxyService } from './mcp-proxy.service';
import { ToolboxProxyController } from './toolbox-proxy.controller';
import { ToolboxProxyService } from './toolbox-proxy.service';

/** Private routes that run recalled actions: the MCP tool proxy and the toolbox (OpenAPI) proxy. */
@Module({
  controllers: [McpProxyController, ToolboxProxyController],
  providers: [McpProxyService, ToolboxProxyService],
  exports: [McpProxyService],
})
export class McpProxyModule {}
